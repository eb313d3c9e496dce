import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

function isCode(err: unknown, code: string): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === code;
}

/**
 * The text of a secret key: the configured value when there is one, else the contents of `file` (an absolute
 * path, normally DATA_DIR/keys/<name>). The file is made on first use with 32 random bytes in hex, mode 0600,
 * in a 0700 directory (`make` gives other key material, such as a PEM private key); when several processes start
 * at once, all of them end up reading the same key. A file with fewer than 32 characters is refused rather than
 * replaced.
 */
export async function configuredOrFileKey(
  configured: string | undefined,
  file: string,
  make: () => string = () => randomBytes(32).toString('hex'),
): Promise<string> {
  if (configured !== undefined) return configured;
  const read = async () => {
    const text = (await fs.readFile(file, 'utf8')).trim();
    if (text.length < 32) throw new Error(`${file} holds no usable key (at least 32 characters)`);
    return text;
  };
  try {
    return await read();
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw err;
  }
  // First use: write a fresh key beside, then link it into place; the link fails if another process won.
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomUUID()}.tmp`;
  await fs.writeFile(tmp, make().trim() + '\n', { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(tmp, file);
  } catch (err) {
    if (!isCode(err, 'EEXIST')) throw err;
  } finally {
    await fs.rm(tmp, { force: true });
  }
  return read();
}

/**
 * Replaces the key in `file` with `text` at once: the new key is written whole to a temp file beside (mode 0600),
 * flushed, then renamed over the old one and the folder flushed, so a reader or a crash sees the old key or the
 * new one, never a part of either.
 */
export async function replaceFileKey(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomUUID()}.tmp`;
  try {
    const handle = await fs.open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(text.trim() + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } finally {
    await fs.rm(tmp, { force: true });
  }
  const folder = await fs.open(dir, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
