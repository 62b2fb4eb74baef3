// Bulk export (spec: GET /dl/{token}/{filename}): the data sets, their files, and who may fetch them.
import { z } from './common.js';

export const BULK_ACCESS = { catalogue: 'auth', latest: 'starter+', prices: 'pro+' } as const;

export const BulkFile = z
  .object({
    format: z.enum(['ndjson.gz', 'csv.gz', 'parquet']),
    filename: z.string(),
    bytes: z.number().int(),
    rows: z.number().int(),
    sha256: z.string().openapi({ description: 'SHA-256 of the file, hex; also its ETag' }),
    url: z.string().nullable().openapi({
      description:
        'signed download link (/dl/{token}/{filename}), valid until expires_at; null when the caller’s tier does not include this data set',
    }),
  })
  .openapi('BulkFile');

export const BulkDataset = z
  .object({
    name: z.string(),
    kind: z.enum(['catalogue', 'prices', 'latest']),
    game: z.string().nullable(),
    month: z.string().nullable().openapi({ description: 'first day of the month, for the price history' }),
    description: z.string(),
    access: z.enum(['auth', 'starter+', 'pro+']).openapi({ description: 'who may download it' }),
    rows: z.number().int(),
    updated_at: z.string().openapi({ format: 'date-time' }),
    files: z.array(BulkFile),
  })
  .openapi('BulkDataset');

export const BulkListResponse = z
  .object({ datasets: z.array(BulkDataset), expires_at: z.string().openapi({ format: 'date-time', description: 'when the links expire' }) })
  .openapi('BulkList');

export const BulkQuery = z.strictObject({
  kind: z.enum(['catalogue', 'prices', 'latest']).optional(),
  game: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/)
    .optional(),
});

export const DownloadParams = z.object({
  // A signed JWT: header, claims, HS256 signature.
  token: z.string().regex(/^[A-Za-z0-9_-]{10,200}\.[A-Za-z0-9_-]{10,800}\.[A-Za-z0-9_-]{43}$/, { message: 'not a download token' }),
  filename: z.string().regex(/^[a-z0-9][a-z0-9.-]{0,120}$/, { message: 'not a file name' }),
});
