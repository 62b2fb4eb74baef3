// Bulk export downloads: the list of data sets with signed, expiring links, and the download by
// token (spec: GET /dl/{token}/{filename}). Possession of the link is the authorisation, so tools
// that cannot send headers (curl in a cron job, a browser, DuckDB's httpfs) can fetch the files;
// the tier is checked when the link is issued. The route sends the file with ranges (resume),
// conditional GET and HEAD; the ETag is the file's SHA-256. The token is a signed JWT (purpose
// "download", sql/runtime/signedTokens.ts) naming the one file it opens.
import path from 'node:path';
import type { z } from 'zod';
import { bulkFileByName, bulkFilesAll, type BulkFileRow } from '../../sql/bulk.js';
import { versionFolder } from '../../ingest/export/bulkExport.js';
import { BULK_ACCESS, type BulkDataset, type BulkListResponse, type BulkQuery } from '../../schemas/bulk.js';
import { authorise, type Principal } from '../auth/principal.js';
import type { AppDeps } from '../deps.js';
import type { Tokens } from '../../sql/runtime/signedTokens.js';
import { DomainError, NotFound } from '../../schemas/errors.js';

/** How long a download link works. */
export const LINK_SECONDS = 6 * 3600;

/** A token for one file until `expiresAt` (unix seconds). */
export function signDownload(tokens: Tokens, filename: string, expiresAt: number): Promise<string> {
  return tokens.sign('download', { file: filename }, expiresAt);
}

/** Whether a token names this file and is still valid. */
export async function verifyDownload(
  tokens: Tokens,
  token: string,
  filename: string,
  now = new Date(),
): Promise<'ok' | 'expired' | 'invalid'> {
  const verified = await tokens.verify('download', token, now);
  if (!verified.ok) return verified.reason;
  return verified.claims.file === filename ? 'ok' : 'invalid';
}

const DESCRIPTIONS = {
  catalogue: (game: string | null) =>
    `The ${game} catalogue: one row per variant with its card, set, printing and external ids (Cardmarket, TCGplayer, Scryfall, pokemontcg.io).`,
  latest: () => 'The latest non-outlier price of every series of every game (raw and graded), with its day.',
  prices: (game: string | null, month: string | null) =>
    `The ${game} price history of ${month?.slice(0, 7)}: every non-outlier observation (daily guide values, one a series and day; auction sales, one a sale) with its card, variant, region, source, price type, grade, currency and amount.`,
};

const mayDownload = (principal: Principal, kind: BulkFileRow['kind']) => {
  try {
    authorise(principal, BULK_ACCESS[kind]);
    return true;
  } catch {
    return false;
  }
};

export async function listBulk(
  deps: AppDeps,
  principal: Principal,
  query: z.output<typeof BulkQuery>,
): Promise<z.input<typeof BulkListResponse>> {
  const expiresAt = Math.floor(Date.now() / 1000) + LINK_SECONDS;
  const rows = (await bulkFilesAll(deps.db)).filter(
    (r) => (!query.kind || r.kind === query.kind) && (!query.game || r.game === query.game),
  );
  const datasets = new Map<string, z.input<typeof BulkDataset>>();
  for (const r of rows) {
    let d = datasets.get(r.dataset);
    if (!d) {
      d = {
        name: r.dataset,
        kind: r.kind,
        game: r.game,
        month: r.month,
        description: DESCRIPTIONS[r.kind](r.game, r.month),
        access: BULK_ACCESS[r.kind],
        rows: r.rows,
        updated_at: r.updated_at,
        files: [],
      };
      datasets.set(r.dataset, d);
    }
    if (r.updated_at > d.updated_at) d.updated_at = r.updated_at;
    d.files.push({
      format: r.format,
      filename: r.filename,
      bytes: r.bytes,
      rows: r.rows,
      sha256: r.sha256,
      url: mayDownload(principal, r.kind) ? `/dl/${await signDownload(deps.tokens, r.filename, expiresAt)}/${r.filename}` : null,
    });
  }
  return { datasets: [...datasets.values()], expires_at: new Date(expiresAt * 1000).toISOString() };
}

const CONTENT_TYPES: Record<BulkFileRow['format'], string> = {
  'ndjson.gz': 'application/gzip',
  'csv.gz': 'application/gzip',
  parquet: 'application/vnd.apache.parquet',
};

/** What a download link opens: a file of the export folder and the headers it is sent with. */
export type DownloadFile = { root: string; path: string; headers: Record<string, string> };

/**
 * The file a download link opens (refused: an expired or invalid link, 403; a file not recorded,
 * 404). No HTTP here: the route sends it (api/http/sendFile.ts: ranges, conditional GET, HEAD).
 */
export async function downloadFile(deps: AppDeps, params: { token: string; filename: string }): Promise<DownloadFile> {
  const verdict = await verifyDownload(deps.tokens, params.token, params.filename);
  if (verdict === 'expired') throw new DomainError('forbidden', 'This download link has expired: list /api/v2/bulk again for a fresh one');
  if (verdict === 'invalid') throw new DomainError('forbidden', 'Not a valid download link for this file');
  const [file] = await bulkFileByName(deps.db, params.filename);
  if (!file) throw new NotFound('file');
  return {
    root: path.join(deps.config.dataDir, 'exports'),
    path: `/${versionFolder(file.sha256)}/${file.filename}`,
    headers: {
      ETag: `"${file.sha256}"`,
      'Content-Type': CONTENT_TYPES[file.format],
      'Cache-Control': 'private, max-age=3600',
      'Content-Disposition': `attachment; filename="${file.filename}"`,
    },
  };
}
