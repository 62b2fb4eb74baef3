// The client's address, behind HOLO_TRUSTED_PROXY_HOPS proxies that each append the address they
// saw to X-Forwarded-For. Koa decides it for the apps (ctx.ip, from the settings below); the hot
// path (hotPath.ts), which answers before Koa, asks clientAddress, which reads the header exactly
// as Koa's request.ips and request.ip do (koa/lib/request.js; a property test holds them equal).
// Entries before the last `hops` were written by the client itself and are never believed.
import type http from 'node:http';

/** Koa's options for `hops` trusted proxies (0: X-Forwarded-For, -Proto and -Host are ignored). */
export const proxySettings = (hops: number) => ({ proxy: hops > 0, maxIpsCount: hops });

/** What Koa's ctx.ip is for this request with proxySettings(hops). */
export function clientAddress(req: http.IncomingMessage, hops: number): string {
  const header = req.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.join(',') : header;
  const ips = hops > 0 && value ? value.split(',').map((v) => v.trim()) : [];
  return ips.slice(-hops)[0] || req.socket.remoteAddress || '';
}
