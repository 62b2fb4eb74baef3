import type Router from '@koa/router';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { defineRoute, type AccessCheck, type Route } from '../http/route.js';
import { fromZod } from '../http/errors.js';
import { BulkListResponse, BulkQuery, DownloadParams } from '../../schemas/bulk.js';
import { ErrorResponse, ValidationErrorResponse } from '../../schemas/common.js';
import { downloadFile, LINK_SECONDS, listBulk } from '../bulk/downloads.js';
import { sendFile } from '../http/sendFile.js';

const DOWNLOAD = '/dl/{token}/{filename}';

/** GET /dl/{token}/{filename}: a file, not JSON, so mounted and documented here rather than by defineRoute. */
function downloadRoute(deps: AppDeps): Route<'get', typeof DOWNLOAD> {
  return {
    access: 'free',
    method: 'get',
    path: DOWNLOAD,
    integerParams: [],
    rawBody: false,
    mount(router: Router, checkAccess: AccessCheck) {
      router.get('/dl/:token/:filename', async (ctx: Context) => {
        await checkAccess('free', ctx);
        const params = DownloadParams.safeParse(ctx.params);
        if (!params.success) throw fromZod('path', params.error, ctx.params);
        await sendFile(ctx, await downloadFile(deps, params.data));
      });
    },
    document(registry: OpenAPIRegistry) {
      const file = {
        'application/gzip': { schema: z.string().openapi({ format: 'binary' }) },
        'application/vnd.apache.parquet': { schema: z.string().openapi({ format: 'binary' }) },
      };
      const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorResponse } } });
      registry.registerPath({
        method: 'get',
        path: DOWNLOAD,
        summary: 'Download a bulk export file by its signed link',
        description: `The link comes from GET /api/v2/bulk and works for ${LINK_SECONDS / 3600} hours without any other credential. Supports Range (resume; 206), If-None-Match / If-Range with the ETag (the file's SHA-256) and HEAD.`,
        tags: ['bulk'],
        'x-access': 'free',
        request: { params: DownloadParams },
        responses: {
          200: { description: 'the file', content: file },
          206: { description: 'the requested byte range', content: file },
          304: { description: 'Not Modified: If-None-Match names the current file' },
          403: error('the link is not valid for this file, or has expired'),
          404: error('no such file'),
          412: { description: 'Precondition Failed: If-Match or If-Unmodified-Since does not hold' },
          416: { description: 'Range Not Satisfiable' },
          422: { description: 'Validation error', content: { 'application/json': { schema: ValidationErrorResponse } } },
          429: error('Too many requests'),
        },
      });
    },
  };
}

export const bulkRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/v2/bulk',
    summary: 'Bulk export data sets with signed download links',
    description:
      "The whole data set as files, refreshed daily by the bulkExport workflow (a month's file only when its prices changed): the catalogue per game (any key), the latest prices (Starter and up), the price history per game and month, every non-outlier observation (Pro and up), each as gzip NDJSON, gzip CSV and Parquet with size, rows, SHA-256 and updated_at. Links work without credentials until expires_at; a data set above the caller's tier is listed with url null.",
    tags: ['bulk'],
    access: 'auth',
    query: BulkQuery,
    response: BulkListResponse,
    errors: [503],
    handler: ({ query, caller }) => listBulk(deps, caller.principal, query),
  }),
  downloadRoute(deps),
];
