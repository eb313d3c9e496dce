/**
 * Vault copies too large for one CopyObject (over 5 GiB): copied by parts into a multipart upload that carries
 * the lock.
 */
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, UploadPartCommand, UploadPartCopyCommand } from '@aws-sdk/client-s3';
import type { ObjectLockLegalHoldStatus, ObjectLockMode, StorageClass } from '@aws-sdk/client-s3';
import { quoteEtag } from '../blob-store.js';
import { copySource, type S3Bucket } from './bucket.js';
import { isUnsupported } from './errors.js';
import type { S3Multipart } from './multipart.js';
import type { S3Objects } from './objects.js';

export type VaultPartCopy = {
  sourceKey: string;
  vaultKey: string;
  size: number;
  /** The copy is of these bytes only: each part copy is conditional on this ETag. */
  sourceEtag: string;
  contentType: string | undefined;
  /** The Object Lock headers the upload is created with. */
  lockHeaders: { ObjectLockMode: ObjectLockMode; ObjectLockRetainUntilDate: Date; ObjectLockLegalHoldStatus: ObjectLockLegalHoldStatus };
  storageClass: StorageClass;
  /** The smallest part size; raised so no copy needs more than 10,000 parts. */
  partSize: number;
};

/**
 * Objects over the threshold (5 GiB, S3's largest single copy): a multipart upload carrying the lock, parts
 * copied by range (UploadPartCopy), completed. A server without UploadPartCopy (s3rver) gets each range read
 * and uploaded as a part instead. A failure aborts the upload.
 */
export async function copyByParts(s3: S3Bucket, objects: S3Objects, multipart: S3Multipart, copy: VaultPartCopy): Promise<void> {
  const { sourceKey, vaultKey, size, sourceEtag, contentType, storageClass } = copy;
  const partSize = Math.max(copy.partSize, Math.ceil(size / 10_000));
  const created = await s3.client.send(
    new CreateMultipartUploadCommand({
      Bucket: s3.bucket,
      Key: vaultKey,
      ContentType: contentType,
      StorageClass: storageClass,
      ...copy.lockHeaders,
    }),
  );
  const uploadId = created.UploadId;
  if (!uploadId) throw new Error('CreateMultipartUpload answered without an UploadId');
  try {
    const parts: { PartNumber: number; ETag: string }[] = [];
    let serverCopies = true;
    for (let start = 0, partNumber = 1; start < size; start += partSize, partNumber++) {
      const end = Math.min(size, start + partSize) - 1;
      let etag: string | undefined;
      if (serverCopies) {
        try {
          const out = await s3.client.send(
            new UploadPartCopyCommand({
              Bucket: s3.bucket,
              Key: vaultKey,
              UploadId: uploadId,
              PartNumber: partNumber,
              CopySource: copySource(s3, sourceKey),
              CopySourceIfMatch: sourceEtag,
              CopySourceRange: `bytes=${start}-${end}`,
            }),
          );
          etag = out.CopyPartResult?.ETag;
        } catch (err) {
          if (!isUnsupported(err)) throw err;
          serverCopies = false;
        }
      }
      if (!serverCopies) {
        const out = await s3.client.send(
          new UploadPartCommand({
            Bucket: s3.bucket,
            Key: vaultKey,
            UploadId: uploadId,
            PartNumber: partNumber,
            ContentLength: end - start + 1,
            Body: await objects.getStream(sourceKey, { start, end }),
          }),
        );
        etag = out.ETag;
      }
      if (!etag) throw new Error(`Part ${partNumber} of the vault copy answered without an ETag`);
      parts.push({ PartNumber: partNumber, ETag: quoteEtag(etag) });
    }
    await s3.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: s3.bucket,
        Key: vaultKey,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  } catch (err) {
    await multipart.abort({ key: vaultKey, uploadId }).catch(() => undefined);
    throw err;
  }
}
