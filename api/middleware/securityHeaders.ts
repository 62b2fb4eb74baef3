// Headers on everything served (README, "Response headers"). nosniff on every answer, so a
// browser never reads an upload, a JSON error or a CSV as a script or a page. And one
// Content-Security-Policy on every answer: it binds what a browser renders as a document (our
// HTML pages, an SVG chart opened on its own) and is ignored by the rest, so setting it everywhere
// means no HTML answer, an error page or a page added tomorrow, can be without it. No inline
// script or style runs unless its SHA-256 is listed here: the pages hold them as constants.
// Two headers set by hand: helmet (koa-helmet) would set a dozen more by default and still need
// the policy written out, which is the part that matters.
import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import { SCAN_PAGE_SCRIPT, SCAN_PAGE_STYLE } from '../recognition/scanPage.js';
import { MARKETPLACE_PAGE_STYLE } from '../marketplace/pages.js';

/** A CSP source allowing exactly this inline block (the text between its tags). */
export const inlineHash = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The API's policy: same-origin images and calls, the listed inline blocks, no framing, no plugins, no <base>. */
export function contentSecurityPolicy(inline: { scripts: string[]; styles: string[] }): string {
  return [
    "default-src 'none'",
    `script-src ${inline.scripts.map(inlineHash).join(' ') || "'none'"}`,
    `style-src ${inline.styles.map(inlineHash).join(' ') || "'none'"}`,
    // Card pictures and uploads are on our own origin; the scan page calls our own API.
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** What the API sends on every answer, the Koa path and the hot path alike. */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': contentSecurityPolicy({
    scripts: [SCAN_PAGE_SCRIPT],
    styles: [SCAN_PAGE_STYLE, MARKETPLACE_PAGE_STYLE],
  }),
});

/**
 * Sets the headers before anything else runs, so they are on every answer: errors, redirects,
 * 304s, files and streams a handler writes itself (Node merges them into its writeHead).
 */
export function securityHeaders(headers: Readonly<Record<string, string>>): Middleware {
  return async (ctx, next) => {
    ctx.set(headers as Record<string, string>);
    await next();
  };
}
