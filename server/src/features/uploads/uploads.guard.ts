/**
 * What the local store asks before it uses a validly signed URL: a PUT only while its upload is pending (so a
 * URL replayed after the upload completed, was aborted, failed or its file was deleted stores nothing), a GET
 * only while a file or one of its versions points at the object (so a download link stops working the moment
 * its file is deleted).
 * S3 cannot ask: there the cleanup job removes what arrives under a key no live upload or file owns, and
 * download links live 60 seconds.
 */
import type { LocalObjectGuard } from '../../platform/storage/local-store.routes.js';
import type { AppContext } from '../../shared/context.js';
import { objectBelongsToFile, uploadAcceptsBytes } from './uploads.repository.js';

export function localObjectGuard(ctx: AppContext): LocalObjectGuard {
  return {
    mayPut: ({ key, uploadId }) => uploadAcceptsBytes(ctx.db, key, uploadId ?? null),
    mayGet: (key) => objectBelongsToFile(ctx.db, key),
  };
}
