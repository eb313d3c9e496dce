/**
 * The backup's manifest (manifest.json at the top of the backup directory): what the backup holds, each file with
 * its size and sha256, and what it does not hold. Restore reads nothing the manifest does not vouch for.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SequencePosition } from '../platform/db/backup-tables.js';

export const MANIFEST_FILE = 'manifest.json';
const FORMAT = 'strongroom-backup';
const FORMAT_VERSION = 1;

/** A refused backup or restore, said in words for the operator (the CLI exits 65). */
export class BackupError extends Error {}

type ManifestTable = {
  name: string;
  file: string;
  columns: string[];
  identity: boolean;
  rows: number;
  bytes: number;
  sha256: string;
};
export type ManifestObject = {
  key: string;
  file: string;
  size: number;
  sha256: string;
  contentType?: string;
  /** Vault objects: their lock when backed up (an ordinary object: null). */
  lock: { retainUntil: string; legalHold: boolean } | null;
  storageClass: string | null;
};
type ManifestKeyFile = { name: string; file: string; size: number; sha256: string };

export type Manifest = {
  format: typeof FORMAT;
  formatVersion: typeof FORMAT_VERSION;
  createdAt: string;
  database: { kind: 'pglite' | 'postgres'; migrations: string[]; snapshot: 'repeatable read, read only' };
  store: { kind: 'local' | 's3' };
  tables: ManifestTable[];
  sequences: SequencePosition[];
  objects: ManifestObject[];
  /** DATA_DIR/keys files, only with --include-keys. */
  keys: ManifestKeyFile[];
  /** What the backup does not hold, in words for the operator. */
  notIncluded: string[];
};

export function newManifest(fields: Pick<Manifest, 'createdAt' | 'database' | 'store'>): Manifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, ...fields, tables: [], sequences: [], objects: [], keys: [], notIncluded: [] };
}

async function sha256File(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { sha256: hash.digest('hex'), size };
}

/** A path inside the backup directory named by the manifest; anything that would leave the directory is refused. */
export function backupPath(dir: string, file: string): string {
  const full = path.resolve(dir, file);
  if (!full.startsWith(path.resolve(dir) + path.sep)) throw new BackupError(`the manifest names a file outside the backup: ${file}`);
  return full;
}

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  let doc: Manifest;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch (err) {
    throw new BackupError(`${file} cannot be read as a Strongroom backup manifest: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (doc?.format !== FORMAT || doc.formatVersion !== FORMAT_VERSION) {
    throw new BackupError(`${file} is not a Strongroom backup of format version ${FORMAT_VERSION}`);
  }
  return doc;
}

/**
 * Checks every file the manifest lists against its size and sha256 before anything is restored: a backup changed
 * or cut short after it was written is refused, naming each file that differs.
 */
export async function verifyBackupFiles(dir: string, manifest: Manifest): Promise<{ files: number; bytes: number }> {
  const listed = [...manifest.tables, ...manifest.objects, ...manifest.keys];
  const problems: string[] = [];
  let bytes = 0;
  for (const entry of listed) {
    const full = backupPath(dir, entry.file);
    if (!fs.existsSync(full)) {
      problems.push(`${entry.file}: missing`);
      continue;
    }
    const found = await sha256File(full);
    bytes += found.size;
    const expectedSize = 'bytes' in entry ? entry.bytes : entry.size;
    if (found.size !== expectedSize || found.sha256 !== entry.sha256)
      problems.push(`${entry.file}: its sha256 or size is not the one the manifest lists`);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 20).join('\n  ');
    throw new BackupError(
      `The backup does not match its manifest; nothing was restored.\n  ${shown}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`,
    );
  }
  return { files: listed.length, bytes };
}
