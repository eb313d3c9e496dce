/**
 * The local store's presigned URLs: HMAC-SHA256 over the request's method, key, expiry and bounds, with a key
 * from the configuration or kept in DATA_DIR/keys/storage-signing.key. A URL is good only for what was signed:
 * another method, key, upload, part, length, bound, file name or type, or a later time, is refused.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { configuredOrFileKey } from '../../keys.js';
import { assertValidKey, BlobInvalidArgumentError } from '../blob-store.js';
import type { PresignedRequest } from '../blob-store.js';
import { LocalStoreRequestError } from './layout.js';

/** The parameters a valid signed URL carried. */
export type SignedRequestParams = {
  method: 'PUT' | 'GET';
  key: string;
  expires: number;
  length?: number;
  /** The most bytes accepted, for URLs without an exact length. */
  maxLength?: number;
  uploadId?: string;
  partNumber?: number;
  fileName?: string;
  contentType?: string;
  /** 'inline' for a preview; a download (attachment) when absent. */
  disposition?: 'inline';
};

export const SIGNING_KEY_FILE = path.join('keys', 'storage-signing.key');
const SIGNED_PARAMS = ['expires', 'length', 'max', 'uploadId', 'partNumber', 'filename', 'type', 'disposition'] as const;

export type UrlSignerOptions = {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** Where the routes answer, e.g. https://archive.example.com/_objects (no trailing slash). */
  baseUrl: string;
  /** HMAC key (at least 32 characters); without it the key file under dataDir is used (made on first use). */
  signingKey?: string;
  now: () => Date;
};

export class UrlSigner {
  private keyPromise: Promise<Buffer> | undefined;

  constructor(private readonly options: UrlSignerOptions) {
    if (options.signingKey !== undefined && options.signingKey.length < 32) {
      throw new BlobInvalidArgumentError('The storage signing key must be at least 32 characters');
    }
  }

  async sign(
    params: Omit<SignedRequestParams, 'expires'>,
    expiresInSeconds: number,
    headers: Record<string, string>,
  ): Promise<PresignedRequest> {
    const expires = Math.floor(this.options.now().getTime() / 1000) + expiresInSeconds;
    const full: SignedRequestParams = { ...params, expires };
    const query = new URLSearchParams();
    query.set('expires', String(expires));
    if (full.length !== undefined) query.set('length', String(full.length));
    if (full.maxLength !== undefined) query.set('max', String(full.maxLength));
    if (full.uploadId !== undefined) query.set('uploadId', full.uploadId);
    if (full.partNumber !== undefined) query.set('partNumber', String(full.partNumber));
    if (full.fileName !== undefined) query.set('filename', full.fileName);
    if (full.contentType !== undefined) query.set('type', full.contentType);
    if (full.disposition !== undefined) query.set('disposition', full.disposition);
    query.set('sig', await this.signature(full));
    return {
      url: `${this.options.baseUrl}/${encodeKey(params.key)}?${query.toString()}`,
      method: params.method,
      headers,
      expiresAt: new Date(expires * 1000),
    };
  }

  /**
   * Checks a request against its signature and expiry. `query` is the parsed query string. Throws
   * LocalStoreRequestError 403 when anything is off (expired, tampered, other key, other method).
   */
  async verify(method: string, key: string, query: Record<string, unknown>): Promise<SignedRequestParams> {
    const deny = (why: string) => new LocalStoreRequestError(403, `Access denied: ${why}`);
    if (method !== 'PUT' && method !== 'GET') throw deny('method');
    try {
      assertValidKey(key);
    } catch {
      throw deny('key');
    }
    const get = (name: string): string | undefined => {
      const value = query[name];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') throw deny(`repeated ${name}`);
      return value;
    };
    const sig = get('sig');
    const expiresText = get('expires');
    if (!sig || !expiresText || !/^\d{1,12}$/.test(expiresText)) throw deny('unsigned');
    for (const name of SIGNED_PARAMS) get(name);
    const int = (name: string): number | undefined => {
      const text = get(name);
      if (text === undefined) return undefined;
      if (!/^\d{1,16}$/.test(text)) throw deny(name);
      return Number(text);
    };
    const disposition = get('disposition');
    if (disposition !== undefined && disposition !== 'inline') throw deny('disposition');
    const params: SignedRequestParams = {
      method,
      key,
      expires: Number(expiresText),
      length: int('length'),
      maxLength: int('max'),
      uploadId: get('uploadId'),
      partNumber: int('partNumber'),
      fileName: get('filename'),
      contentType: get('type'),
      ...(disposition ? { disposition } : {}),
    };
    const expected = Buffer.from(await this.signature(params));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw deny('signature');
    if (Math.floor(this.options.now().getTime() / 1000) > params.expires) throw deny('expired');
    return params;
  }

  /** The HMAC key, read (or made) once. */
  key(): Promise<Buffer> {
    this.keyPromise ??= this.loadKey();
    return this.keyPromise;
  }

  private async signature(p: SignedRequestParams): Promise<string> {
    const fields: unknown[] = [
      'strongroom-blob-v1',
      p.method,
      p.key,
      p.expires,
      p.uploadId ?? null,
      p.partNumber ?? null,
      p.length ?? null,
      p.fileName ?? null,
      p.contentType ?? null,
    ];
    // The upper bound is signed too (appended only when present, so URLs without one keep their form).
    if (p.maxLength !== undefined) fields.push(['max', p.maxLength]);
    // So is an inline (preview) disposition: a download link cannot be turned into a preview, nor back.
    if (p.disposition !== undefined) fields.push(['disposition', p.disposition]);
    const canonical = JSON.stringify(fields);
    return createHmac('sha256', await this.key())
      .update(canonical)
      .digest('base64url');
  }

  private async loadKey(): Promise<Buffer> {
    const text = await configuredOrFileKey(this.options.signingKey, path.join(this.options.dataDir, SIGNING_KEY_FILE));
    return Buffer.from(text, 'utf8');
  }
}

function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
