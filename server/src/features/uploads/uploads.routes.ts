import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  multipartAbortRequest,
  multipartAbortResponse,
  multipartCompleteRequest,
  multipartCompleteResponse,
  multipartInitRequest,
  multipartInitResponse,
  presignedUrlRequest,
  presignedUrlResponse,
  uploadPartsQuery,
  uploadPartsResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { tokenScoped } from '../../shared/route-access.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { completeUpload } from './uploads-completion.service.js';
import { initMultipart, presignUpload } from './uploads-presign.service.js';
import { abortUpload, listUploadParts } from './uploads.service.js';

export function uploadsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Starting and completing an upload is decided against the matter and canUpload (read-only matters answer 403
    // READ_ONLY); abandoning one's own upload takes a member; listing stored parts, a member holding canUpload.
    const config = { access: { who: 'signed-in' } } as const satisfies { access: RouteAccess };
    const members = { access: { who: 'signed-in', allow: 'member' } } as const satisfies { access: RouteAccess };
    const uploaders = { access: { who: 'signed-in', allow: [{ rule: 'member' }, { rule: 'upload' }] } } as const satisfies {
      access: RouteAccess;
    };
    const tags = ['uploads'];
    app.post(
      '/_api/upload/presigned',
      {
        schema: {
          operationId: 'startUpload',
          summary: 'Starts a single-request upload of a file and answers the signed URL to PUT its bytes to.',
          tags,
          body: presignedUrlRequest,
          response: { 200: presignedUrlResponse },
        },
        config: tokenScoped(config, 'files:upload'),
      },
      async (request) => presignUpload(ctx, authOf(request), request.body),
    );
    app.post(
      '/_api/upload/multipart-init',
      {
        schema: {
          operationId: 'startMultipartUpload',
          summary: "Starts a multipart upload of a large file and answers its parts' signed URLs.",
          tags,
          body: multipartInitRequest,
          response: { 200: multipartInitResponse },
        },
        config: tokenScoped(config, 'files:upload'),
      },
      async (request) => initMultipart(ctx, authOf(request), request.body),
    );
    app.post(
      '/_api/upload/multipart-complete',
      {
        schema: {
          operationId: 'completeMultipartUpload',
          summary: 'Completes a multipart upload and records the file in its matter.',
          tags,
          body: multipartCompleteRequest,
          response: { 200: multipartCompleteResponse },
        },
        config: tokenScoped(config, 'files:upload'),
      },
      async (request) => completeUpload(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/upload/multipart-abort',
      {
        schema: {
          operationId: 'abortMultipartUpload',
          summary: "Abandons one's own multipart upload and discards its stored parts.",
          tags,
          body: multipartAbortRequest,
          response: { 200: multipartAbortResponse },
        },
        config: tokenScoped(members, 'files:upload'),
      },
      async (request) => abortUpload(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/upload/parts',
      {
        schema: {
          operationId: 'listUploadParts',
          summary: 'Lists the parts a multipart upload has stored so far, to resume it.',
          tags,
          querystring: uploadPartsQuery,
          response: { 200: uploadPartsResponse },
        },
        config: tokenScoped(uploaders, 'files:upload'),
      },
      async (request) => listUploadParts(ctx, authOf(request), request.query),
    );
  };
}
