/**
 * What interrupted work leaves in the local store: multipart uploads never completed or aborted, upload folders
 * a crash left in the trash, and temp files of writes that never finished. Run daily by the cleanup job.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isCode, readJson, UPLOAD_ID, type LocalLayout, type UploadMeta } from './layout.js';
import { removeUploadDir } from './multipart.js';

/** Removes uploads begun before `olderThan` (and older temp files); answers how many uploads went. */
export async function cleanupLocalStore(layout: LocalLayout, olderThan: Date): Promise<number> {
  const limit = olderThan.getTime();
  let removed = 0;
  let entries: string[] = [];
  try {
    entries = await fs.readdir(layout.multipartDir);
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw err;
  }
  for (const name of entries) {
    const dir = path.join(layout.multipartDir, name);
    if (name.startsWith('.trash-')) {
      await fs.rm(dir, { recursive: true, force: true });
      continue;
    }
    if (!UPLOAD_ID.test(name)) continue;
    const meta = await readJson<UploadMeta>(path.join(dir, 'upload.json'));
    let started = meta ? Date.parse(meta.createdAt) : NaN;
    if (Number.isNaN(started)) {
      const stat = await fs.stat(dir).catch(() => null);
      if (!stat) continue;
      started = stat.mtimeMs;
    }
    if (started < limit) {
      await removeUploadDir(layout, name);
      removed += 1;
    }
  }
  // Temp files of writes that never finished (a crash, a dropped connection before cleanup ran).
  try {
    for (const name of await fs.readdir(layout.tmpDir)) {
      const file = path.join(layout.tmpDir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && stat.mtimeMs < limit) await fs.rm(file, { force: true, recursive: true });
    }
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw err;
  }
  return removed;
}
