/**
 * Storage: `createBlobStore(config)` picks the S3 adapter when config.s3 is set, else the local store.
 * With the local store the app must also mount its routes (local-store.routes.ts) at LOCAL_OBJECTS_PREFIX.
 */
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-store.js';
import { S3BlobStore, type S3StorageOptions } from './s3-store.js';

export * from './blob-store.js';
export { LocalBlobStore } from './local-store.js';
export { S3BlobStore } from './s3-store.js';

/** Where the app mounts localStoreRoutes; the local store signs URLs under `${appUrl}${LOCAL_OBJECTS_PREFIX}`. */
const LOCAL_OBJECTS_PREFIX = '/_objects';

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

/**
 * The readiness line for the vault: 'ok' when the store enforces write-once, else
 * 'write-once not enforced: <why>' (the app stays ready; the Retention & Vault tab shows the same).
 */
export async function writeOnceCheck(store: BlobStore): Promise<string> {
  try {
    const status = await store.writeOnceStatus();
    return status.enforced ? 'ok' : `write-once not enforced: ${status.detail}`;
  } catch (err) {
    return `write-once not enforced: could not check (${err instanceof Error ? err.message : String(err)})`;
  }
}
