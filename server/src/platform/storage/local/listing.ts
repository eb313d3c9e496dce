/**
 * Listing the local store's keys by prefix, in the order S3 lists them (ascending bytes of the key). Keys are
 * files under DATA_DIR/objects whose path segments are the key's segments; the store's own folders (.tmp, .meta,
 * .multipart, .locks) start with a dot, which no key segment does, so they are never listed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isCode, type LocalLayout } from './layout.js';

/** Whether every key under the folder `dirKey` (keys beginning `dirKey/`) sorts at or before `startAfter`. */
function folderIsBehind(dirKey: string, startAfter: string | undefined): boolean {
  if (startAfter === undefined) return false;
  const inside = `${dirKey}/`;
  return !startAfter.startsWith(inside) && startAfter > inside;
}

async function entriesOf(dir: string) {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return [];
    throw err;
  }
}

export async function listLocalKeys(layout: LocalLayout, prefix: string, startAfter: string | undefined, limit: number): Promise<string[]> {
  const slash = prefix.lastIndexOf('/');
  const baseKey = slash < 0 ? '' : prefix.slice(0, slash);
  const keys: string[] = [];
  const walk = async (dirKey: string): Promise<void> => {
    const dir = dirKey === '' ? layout.root : path.join(layout.root, ...dirKey.split('/'));
    for (const entry of await entriesOf(dir)) {
      if (entry.name.startsWith('.')) continue;
      const key = dirKey === '' ? entry.name : `${dirKey}/${entry.name}`;
      if (entry.isDirectory()) {
        // Only folders on the way to the prefix, or inside it, can hold a listed key.
        const folder = `${key}/`;
        if (!(folder.startsWith(prefix) || prefix.startsWith(folder))) continue;
        if (folderIsBehind(key, startAfter)) continue;
        await walk(key);
      } else if (entry.isFile() && key.startsWith(prefix) && (startAfter === undefined || key > startAfter)) {
        keys.push(key);
      }
    }
  };
  await walk(baseKey);
  keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.slice(0, limit);
}
