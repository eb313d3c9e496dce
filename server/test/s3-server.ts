/**
 * A real S3-protocol server on loopback for tests: s3rver on 127.0.0.1, a random free port, a temp directory,
 * one bucket with CORS (ExposeHeaders ETag).
 *
 * What s3rver does and does not (see /work/shared/stack.md): buckets, presigned PUT, multipart create / upload
 * part / complete, GET with response-* overrides, CORS, expired presigned URLs 403. It does NOT do ListParts or
 * AbortMultipartUpload (405), Object Lock, or V4 signature checks (a tampered URL is accepted). Those paths are
 * tested against a real S3 / MinIO when S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are set.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { bucketCorsRules } from '../src/platform/storage/s3-store.js';

type S3rverInstance = {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
};
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  resetOnClose?: boolean;
}) => S3rverInstance;

// s3rver is CommonJS without type declarations.
const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverConstructor;

export type TestS3Server = {
  endpoint: string;
  region: string;
  bucket: string;
  /** s3rver knows one account only: S3RVER / S3RVER. */
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
};

export async function startS3Server(options: { bucket?: string; allowedOrigins?: string[] } = {}): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'strongroom-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  let address: { port: number };
  try {
    address = await server.run();
  } catch (err) {
    await fs.rm(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  const bucket = options.bucket ?? 'strongroom-test';
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  const region = 'us-east-1';
  const close = async () => {
    await server.close();
    await fs.rm(directory, { recursive: true, force: true });
  };
  const client = new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    await client.send(
      new PutBucketCorsCommand({
        Bucket: bucket,
        CORSConfiguration: { CORSRules: bucketCorsRules(options.allowedOrigins ?? ['*']) },
      }),
    );
  } catch (err) {
    await close();
    throw err;
  } finally {
    client.destroy();
  }
  return { endpoint, region, bucket, accessKeyId, secretAccessKey, close };
}
