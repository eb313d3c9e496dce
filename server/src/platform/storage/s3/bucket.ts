/**
 * What every part of the S3 store shares: one client, one bucket, one clock, how requests are presigned, and
 * where vault objects live in the bucket (under vault/, written only by the vault copy, under a lock).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { assertValidKey, BlobInvalidKeyError, BlobLockedError } from '../blob-store.js';
import type { PresignedRequest } from '../blob-store.js';

export type S3Bucket = {
  readonly client: S3Client;
  readonly bucket: string;
  /** Clock used as the signing date of presigned URLs and to judge locks. */
  readonly now: () => Date;
};

/** A presigned request: `sign` makes the URL (getSignedUrl with the command), valid expiresInSeconds from now. */
export async function presign(
  s3: S3Bucket,
  sign: (options: { expiresIn: number; signingDate: Date }) => Promise<string>,
  method: 'PUT' | 'GET',
  expiresInSeconds: number,
  headers: Record<string, string>,
): Promise<PresignedRequest> {
  const signingDate = s3.now();
  // content-length, when set on the command, stays a signed header: S3 refuses any other length (403).
  const url = await sign({ expiresIn: expiresInSeconds, signingDate });
  return { url, method, headers, expiresAt: new Date(signingDate.getTime() + expiresInSeconds * 1000) };
}

/** CopySource header: bucket and key, each segment URL-encoded. */
export function copySource(s3: S3Bucket, key: string): string {
  return `${s3.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

// ---------------------------------------------------------------- vault keys

const VAULT_PREFIX = 'vault/';

export function isVaultKey(key: string): boolean {
  return key.startsWith(VAULT_PREFIX);
}

export function assertVaultKey(key: string): void {
  assertValidKey(key);
  if (!isVaultKey(key)) throw new BlobInvalidKeyError(`vault objects live under ${VAULT_PREFIX}`);
}

/** Ordinary uploads never write under vault/: those keys are written only by the vault copy, under a lock. */
export function assertOrdinaryKey(key: string): void {
  if (isVaultKey(key)) {
    throw new BlobLockedError(key, 'vault objects are write-once: written only by the vault copy, never replaced');
  }
}
