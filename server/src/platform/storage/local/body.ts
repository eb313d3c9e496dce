/**
 * Receiving a request body into a new file under .tmp, for a single PUT or a part: bytes are counted against
 * the signed length or bound, their MD5 (the ETag) is computed, and the file is fsynced before the caller sees
 * it. Any failure removes the file.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { hashPool, INLINE_HASH_LIMIT } from '../hash-pool.js';
import { LocalStoreRequestError, type LocalLayout } from './layout.js';

export type ReceivedBody = { file: string; md5: string; size: number };

/**
 * Streams body to a new file under .tmp. With `length`, exactly that many bytes must arrive (400 otherwise);
 * without, at most `max` (413 beyond). A body that may be large goes to a hash worker (hash-pool.ts), which
 * hashes and writes it in 1 MiB batches, so the event loop only receives and copies; a body known to be small
 * is hashed and written here.
 */
export async function receiveBody(layout: LocalLayout, body: Readable, length: number | undefined, max: number): Promise<ReceivedBody> {
  const file = await layout.tempFile();
  const limit = length ?? max;
  let size = 0;
  const count = (chunk: Buffer): Error | undefined => {
    size += chunk.length;
    if (size <= limit) return undefined;
    return length === undefined
      ? new LocalStoreRequestError(413, 'Body too large')
      : new LocalStoreRequestError(400, 'Body longer than the signed length');
  };
  const small = length !== undefined && length < INLINE_HASH_LIMIT;
  const job = small ? undefined : hashPool.stream('md5', { file });
  let digest: string;
  try {
    if (job) {
      await pipeline(body, job.writable(count));
      digest = await job.digest();
    } else {
      const md5 = createHash('md5');
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          const tooLong = count(chunk);
          if (tooLong) return done(tooLong);
          md5.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(body, meter, createWriteStream(file, { flags: 'wx', mode: 0o600, flush: true }));
      digest = md5.digest('hex');
    }
    if (length !== undefined && size !== length) {
      throw new LocalStoreRequestError(400, `Body of ${size} bytes, the URL was signed for ${length}`);
    }
  } catch (err) {
    await job?.abort();
    await fs.rm(file, { force: true });
    throw err;
  }
  return { file, md5: digest, size };
}
