/**
 * What the SDK's errors mean to the store. S3 servers differ in how they say a thing (a name, or only an HTTP
 * status), so each question looks at both.
 */
import { S3ServiceException } from '@aws-sdk/client-s3';
import { BlobLockedError } from '../blob-store.js';

export function errorName(err: unknown): string | undefined {
  if (err instanceof S3ServiceException) return err.name;
  if (typeof err === 'object' && err !== null && 'name' in err) return String((err as { name: unknown }).name);
  return undefined;
}

export function httpStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

export function isNotFound(err: unknown): boolean {
  const name = errorName(err);
  return name === 'NoSuchKey' || name === 'NotFound' || (httpStatus(err) === 404 && name !== 'NoSuchBucket' && name !== 'NoSuchUpload');
}

export function isNoSuchUpload(err: unknown): boolean {
  return errorName(err) === 'NoSuchUpload';
}

/** A conditional write refused: the key already holds an object (If-None-Match: *). */
export function isPreconditionFailed(err: unknown): boolean {
  return errorName(err) === 'PreconditionFailed' || httpStatus(err) === 412;
}

/** s3rver answers 405 MethodNotAllowed for ListParts and AbortMultipartUpload; others may say 501 NotImplemented. */
export function isUnsupported(err: unknown): boolean {
  const name = errorName(err);
  const status = httpStatus(err);
  return name === 'MethodNotAllowed' || name === 'NotImplemented' || status === 405 || status === 501;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** S3 refuses changes to a locked version with AccessDenied (or InvalidRequest for some calls): BlobLockedError. */
export function mapLockError(key: string, err: unknown): unknown {
  const name = errorName(err);
  if (name === 'AccessDenied' || name === 'InvalidRequest' || httpStatus(err) === 403) {
    return new BlobLockedError(key, `the object store refused (${name ?? 'error'}: ${messageOf(err)})`, { cause: err });
  }
  return err;
}
