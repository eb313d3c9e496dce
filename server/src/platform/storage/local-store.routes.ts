/**
 * HTTP side of the local BlobStore: the URLs LocalBlobStore signs point here.
 *
 * Mount once, only when the local store is in use, at the prefix the store signs for (default '/_objects'):
 *   app.register(localStoreRoutes, { prefix: '/_objects', store })
 * No session guard: the signature is the authorization. The plugin is encapsulated (do NOT wrap it in
 * fastify-plugin): inside it every content type is taken as a raw stream, so the app's JSON parser and its
 * 1 MB bodyLimit do not apply here, and nothing leaks to the rest of the app.
 *
 *   PUT /_objects/<key>?expires&(length|max)&sig                       whole object (exact length or at most max)
 *   PUT /_objects/<key>?expires&uploadId&partNumber[&length|&max]&sig  one multipart part
 *   GET /_objects/<key>?expires&filename&type&sig                      download, Content-Disposition attachment, Range
 *   GET /_objects/<key>?expires&filename&type&disposition=inline&sig   preview: inline, with a CSP that runs nothing
 * Answers: 200 with ETag on PUT; 403 bad/expired signature, other key, other method, other length; 411 no
 * Content-Length on a length-bound PUT; 404 unknown object/upload; 400 body shorter/longer than declared;
 * 412 single PUT to a key that already holds an object (write-once, like If-None-Match: * on S3); 403 any PUT
 * to a vault key (vault objects are written only by the vault copy, under their lock);
 * 413 body over its bound; 416 unsatisfiable range.
 *
 * A signature alone is not enough: the `guard` the app passes (the uploads feature's) is asked before any byte
 * is stored or served. A PUT is refused (410) unless its upload is still pending, so a URL replayed after the
 * upload finished, was aborted or its file deleted stores nothing; a GET is refused (404) once no file points
 * at the object, so a download link dies with its file at once, not when the delete job runs.
 */
import type { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { BlobStoreError, contentDispositionAttachment, MAX_SINGLE_PUT_SIZE, PREVIEW_CSP } from './blob-store.js';
import type { ByteRange } from './blob-store.js';
import { LocalStoreRequestError } from './local-store.js';
import type { LocalBlobStore } from './local-store.js';

/** Decides, per request, whether a validly signed URL may still be used. */
export type LocalObjectGuard = {
  mayPut(request: { key: string; uploadId?: string; partNumber?: number }): Promise<boolean>;
  mayGet(key: string): Promise<boolean>;
};

export type LocalStoreRoutesOptions = { store: LocalBlobStore; guard?: LocalObjectGuard };

const CODE_BY_STATUS: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  403: 'PERMISSION_ERROR',
  404: 'NOT_FOUND',
  410: 'NOT_FOUND',
  411: 'VALIDATION_ERROR',
  412: 'CONFLICT_ERROR',
  413: 'PAYLOAD_TOO_LARGE',
  416: 'VALIDATION_ERROR',
};

function refuse(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json')
    .send({ error: message, code: CODE_BY_STATUS[status] ?? 'VALIDATION_ERROR' });
}

/** Known refusals become their status; anything else goes to the app's error handler (500). */
function handleError(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof LocalStoreRequestError) return refuse(reply, err.statusCode, err.message);
  if (err instanceof BlobStoreError) {
    switch (err.code) {
      case 'NO_SUCH_KEY':
      case 'NO_SUCH_UPLOAD':
        return refuse(reply, 404, err.message);
      case 'INVALID_KEY':
        return refuse(reply, 403, err.message);
      case 'OBJECT_EXISTS':
        return refuse(reply, 412, err.message);
      case 'OBJECT_LOCKED':
        // A vault object: write-once, whoever signed the URL.
        return refuse(reply, 403, `Access denied: ${err.message}`);
      default:
        return refuse(reply, 400, err.message);
    }
  }
  throw err;
}

/** One `bytes=` range; null when absent, malformed or multiple (then the whole object is sent, as RFC 9110 allows). */
function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export const localStoreRoutes: FastifyPluginAsync<LocalStoreRoutesOptions> = async (app, { store, guard }) => {
  // Every body is a raw stream for the handlers; nothing is parsed or buffered.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.put(
    '/*',
    {
      schema: {
        operationId: 'putObject',
        summary: "Stores a file's bytes, or one part of a multipart upload, through a URL the server signed.",
        description:
          'Only with the whole URL an upload call answered (POST /_api/upload/presigned or multipart-init): its query ' +
          '(expires, length or max, uploadId and partNumber for a part, sig) is the authorization, and the upload must ' +
          'still be open. The body is the raw bytes; the answer carries the ETag header.',
        tags: ['objects'],
      },
      config: {
        access: { who: 'public', why: 'the browser PUTs file bytes to a URL the server signed; the signature is the authorization' },
      },
      bodyLimit: MAX_SINGLE_PUT_SIZE,
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      try {
        const signed = await store.verifySignedRequest('PUT', key, request.query as Record<string, unknown>);
        const declared = request.headers['content-length'];
        if (signed.length !== undefined) {
          if (declared === undefined) return refuse(reply, 411, 'Content-Length required');
          if (!/^\d+$/.test(declared) || Number(declared) !== signed.length) {
            return refuse(reply, 403, 'Access denied: Content-Length differs from the signed length');
          }
        } else if (
          signed.maxLength !== undefined &&
          declared !== undefined &&
          (!/^\d+$/.test(declared) || Number(declared) > signed.maxLength)
        ) {
          return refuse(reply, 413, 'Body larger than the signed limit');
        }
        const isPart = signed.uploadId !== undefined || signed.partNumber !== undefined;
        if (isPart && (signed.uploadId === undefined || signed.partNumber === undefined)) return refuse(reply, 403, 'Access denied: part');
        if (!isPart && signed.length === undefined && signed.maxLength === undefined)
          return refuse(reply, 403, 'Access denied: unbound length');
        if (guard && !(await guard.mayPut({ key, uploadId: signed.uploadId, partNumber: signed.partNumber }))) {
          return refuse(reply, 410, 'This upload is no longer open');
        }
        const body = (request.body as Readable | undefined) ?? request.raw;
        let etag: string;
        if (isPart) {
          ({ etag } = await store.writePart(key, signed.uploadId!, signed.partNumber!, body, {
            length: signed.length,
            maxLength: signed.maxLength,
          }));
        } else {
          ({ etag } = await store.writeObject(key, body, {
            length: signed.length,
            maxLength: signed.maxLength,
            contentType: request.headers['content-type'],
          }));
        }
        return reply.code(200).header('ETag', etag).header('Access-Control-Expose-Headers', 'ETag').send();
      } catch (err) {
        return handleError(reply, err);
      }
    },
  );

  app.get(
    '/*',
    {
      schema: {
        operationId: 'getObject',
        summary: "Downloads a file's bytes through a URL the server signed, with byte ranges.",
        description:
          'Only with the whole URL GET /_api/nodes/download-url answered: its query (expires, filename, type, sig) is the ' +
          'authorization, and a file must still point at the object. Answers the bytes as an attachment; a Range header ' +
          'asks for part of them (206, or 416 when it cannot be satisfied).',
        tags: ['objects'],
      },
      config: { access: { who: 'public', why: 'downloads through a URL the server signed; the signature is the authorization' } },
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      try {
        const signed = await store.verifySignedRequest('GET', key, request.query as Record<string, unknown>);
        if (guard && !(await guard.mayGet(key))) return refuse(reply, 404, 'No such object');
        const head = await store.head(key);
        if (!head) return refuse(reply, 404, 'No such object');
        const range = parseRange(request.headers.range, head.size);
        if (range === 'unsatisfiable') {
          return reply.code(416).header('Content-Range', `bytes */${head.size}`).send();
        }
        const opened = await store.openObject(key, range ?? undefined);
        const inline = signed.disposition === 'inline';
        const fileName = signed.fileName ?? key.split('/').pop() ?? 'download';
        reply
          .header('Content-Type', signed.contentType ?? head.contentType ?? 'application/octet-stream')
          .header('Content-Disposition', contentDispositionAttachment(fileName, inline ? 'inline' : 'attachment'))
          .header('Content-Length', String(opened.size === 0 ? 0 : opened.end - opened.start + 1))
          .header('ETag', head.etag)
          .header('Accept-Ranges', 'bytes')
          .header('Cache-Control', 'private, no-store')
          .header('X-Content-Type-Options', 'nosniff')
          // Nothing a document holds may run, whether downloaded or previewed.
          .header('Content-Security-Policy', inline ? PREVIEW_CSP : "default-src 'none'; sandbox")
          .header('Access-Control-Expose-Headers', 'ETag, Content-Disposition, Content-Length, Content-Range');
        if (range) reply.code(206).header('Content-Range', `bytes ${opened.start}-${opened.end}/${opened.size}`);
        return reply.send(opened.stream);
      } catch (err) {
        return handleError(reply, err);
      }
    },
  );
};
