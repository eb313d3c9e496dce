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
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { abortUpload, completeUpload, initMultipart, listUploadParts, presignUpload } from './uploads.service.js';

export function uploadsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'signed-in' } as const;
    const tags = ['uploads'];
    app.post(
      '/_api/upload/presigned',
      { schema: { tags, body: presignedUrlRequest, response: { 200: presignedUrlResponse } }, config },
      async (request) => presignUpload(ctx, authOf(request), request.body),
    );
    app.post(
      '/_api/upload/multipart-init',
      { schema: { tags, body: multipartInitRequest, response: { 200: multipartInitResponse } }, config },
      async (request) => initMultipart(ctx, authOf(request), request.body),
    );
    app.post(
      '/_api/upload/multipart-complete',
      { schema: { tags, body: multipartCompleteRequest, response: { 200: multipartCompleteResponse } }, config },
      async (request) => completeUpload(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/upload/multipart-abort',
      { schema: { tags, body: multipartAbortRequest, response: { 200: multipartAbortResponse } }, config },
      async (request) => abortUpload(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/upload/parts',
      { schema: { tags, querystring: uploadPartsQuery, response: { 200: uploadPartsResponse } }, config },
      async (request) => listUploadParts(ctx, authOf(request), request.query),
    );
  };
}
