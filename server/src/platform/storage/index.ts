/**
 * Storage: `createBlobStore(config)` picks the S3 adapter when config.s3 is set, else the local store.
 * With the local store the app must also mount its routes (see local-store.routes.ts):
 *   const store = createBlobStore(cfg);
 *   if (store instanceof LocalBlobStore) app.register(localStoreRoutes, { prefix: LOCAL_OBJECTS_PREFIX, store });
 */
import { LocalBlobStore } from './local-store.js';
import { S3BlobStore, type S3StorageOptions } from './s3-store.js';

export * from './blob-store.js';
export { LocalBlobStore, LocalStoreRequestError, SIGNING_KEY_FILE } from './local-store.js';
export type { LocalBlobStoreOptions, SignedRequestParams } from './local-store.js';
export { localStoreRoutes } from './local-store.routes.js';
export type { LocalStoreRoutesOptions } from './local-store.routes.js';
export { S3BlobStore, bucketCorsRules, BUCKET_LIFECYCLE_RULE } from './s3-store.js';
export type { S3BlobStoreOptions, S3StorageOptions } from './s3-store.js';

/** Where the app mounts localStoreRoutes; the local store signs URLs under `${appUrl}${LOCAL_OBJECTS_PREFIX}`. */
export const LOCAL_OBJECTS_PREFIX = '/_objects';

export type BlobStoreConfig = {
  dataDir: string;
  appUrl: string;
  /** Local store HMAC key (STORAGE_SIGNING_KEY); without it one is kept in DATA_DIR/keys/storage-signing.key. */
  signingKey?: string;
  s3?: S3StorageOptions;
};

export function createBlobStore(config: BlobStoreConfig): LocalBlobStore | S3BlobStore {
  if (config.s3) return new S3BlobStore(config.s3);
  return new LocalBlobStore({
    dataDir: config.dataDir,
    appUrl: config.appUrl,
    signingKey: config.signingKey,
    routePrefix: LOCAL_OBJECTS_PREFIX,
  });
}
