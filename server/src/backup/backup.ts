/**
 * `npm run admin -- backup --out <dir>`: the installation as files an operator can keep elsewhere.
 *
 *   manifest.json      what is in the backup (every file with its size and sha256) and what is not; written last,
 *                      so a backup cut short has none and cannot be restored
 *   db/<table>.jsonl   every table's rows (backup-tables.ts), read in one snapshot
 *   objects/<key>      every object of the store, vault objects and signed audit heads included, with its lock
 *   keys/<file>        DATA_DIR/keys, only with --include-keys
 *
 * The rows are read first, in one REPEATABLE READ snapshot; the objects after. Strongroom stores an object
 * before any row names it and removes rows before their objects, so every object the snapshot's rows name is
 * still there when the objects are copied (objects written after the snapshot may be copied too: nothing names
 * them and they are harmless). A file removed for good between the snapshot and the copy (its rows first, then
 * its object by a job) would leave a row of the snapshot without its object: the backup checks that every object
 * the snapshot's rows name was copied, and fails naming the missing ones (a second run is then consistent).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type { AppContext } from '../shared/context.js';
import { backupTables, dumpTable, inSnapshot, sequencePositions, TABLES_NOT_BACKED_UP } from '../platform/db/backup-tables.js';
import { namedObjectKeys } from './backup-reads.js';
import { BackupError, MANIFEST_FILE, newManifest, type Manifest, type ManifestObject } from './manifest.js';

export type BackupContext = Pick<AppContext, 'config' | 'db' | 'dbKind' | 'store'>;
export type BackupSummary = {
  out: string;
  tables: number;
  rows: number;
  objects: number;
  objectBytes: number;
  keysIncluded: boolean;
  /** What the backup does not hold, said to the operator at once (also in the manifest). */
  notIncluded: string[];
};

const KEYS_DIR = 'keys';

function emptyTarget(out: string): void {
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0)
    throw new BackupError(`${out} is not empty: give a new or empty directory for the backup`);
  fs.mkdirSync(out, { recursive: true, mode: 0o700 });
}

async function copyObject(ctx: BackupContext, out: string, key: string): Promise<ManifestObject> {
  const file = `objects/${key}`;
  const target = path.join(out, file);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const head = await ctx.store.head(key);
  if (!head) throw new BackupError(`the object ${key} disappeared while the backup ran: run the backup again`);
  const info = key.startsWith('vault/') ? await ctx.store.vaultInfo(key) : null;
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    await ctx.store.getStream(key),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }),
  );
  if (size !== head.size) throw new BackupError(`the object ${key} changed while it was copied: run the backup again`);
  return {
    key,
    file,
    size,
    sha256: hash.digest('hex'),
    ...(head.contentType ? { contentType: head.contentType } : {}),
    lock: info?.lock ? { retainUntil: info.lock.retainUntil.toISOString(), legalHold: info.lock.legalHold } : null,
    storageClass: info?.storageClass ?? null,
  };
}

async function copyKeys(ctx: BackupContext, out: string, manifest: Manifest): Promise<void> {
  const dir = path.join(ctx.config.dataDir, KEYS_DIR);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isFile()) : [];
  fs.mkdirSync(path.join(out, KEYS_DIR), { mode: 0o700 });
  for (const d of names) {
    const bytes = fs.readFileSync(path.join(dir, d.name));
    const file = `${KEYS_DIR}/${d.name}`;
    fs.writeFileSync(path.join(out, file), bytes, { mode: 0o600, flag: 'wx' });
    manifest.keys.push({ name: d.name, file, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
}

/** What the backup leaves out, in words; printed by the command and kept in the manifest. */
function notIncluded(ctx: BackupContext, includeKeys: boolean): string[] {
  const list = [
    `the tables ${TABLES_NOT_BACKED_UP.filter((t) => !t.startsWith('schema_')).join(', ')}: sessions and short-lived codes and tokens (everyone signs in again after a restore)`,
    'queued and scheduled background jobs (the scheduled ones are set up again when the server starts)',
    'earlier versions of objects kept by S3 versioning (only each key as it is now)',
  ];
  if (!includeKeys) {
    list.push(
      'DATA_DIR/keys (the signing private key, the MFA encryption key, the storage URL signing key): keep them apart, or back up again with --include-keys. Without the MFA key no authenticator code can be checked after a restore; without the signing key the installation signs with a new key (the old one stays published, so what it signed still verifies)',
    );
  }
  const env = [
    ctx.config.signingPrivateKey !== undefined ? 'SIGNING_PRIVATE_KEY' : null,
    ctx.config.mfaEncryptionKey !== undefined ? 'MFA_ENCRYPTION_KEY' : null,
    ctx.config.storageSigningKey !== undefined ? 'STORAGE_SIGNING_KEY' : null,
  ].filter((v) => v !== null);
  if (env.length > 0) list.push(`keys given in the environment (${env.join(', ')}): keep them with the backup's records, never in it`);
  return list;
}

export async function runBackup(ctx: BackupContext, opts: { out: string; includeKeys: boolean }): Promise<BackupSummary> {
  const out = path.resolve(opts.out);
  emptyTarget(out);
  fs.mkdirSync(path.join(out, 'db'), { mode: 0o700 });
  const manifest = newManifest({
    createdAt: new Date().toISOString(),
    database: { kind: ctx.dbKind, migrations: [], snapshot: 'repeatable read, read only' },
    store: { kind: ctx.store.kind },
  });
  let named: string[] = [];
  await inSnapshot(ctx.db, async (trx) => {
    const { rows } = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(trx);
    manifest.database.migrations = rows.map((r) => r.name);
    for (const table of await backupTables(trx)) {
      const file = `db/${table.name}.jsonl`;
      manifest.tables.push({ ...(await dumpTable(trx, table, path.join(out, file))), file });
    }
    manifest.sequences = await sequencePositions(trx);
    named = await namedObjectKeys(trx);
  });
  for (let startAfter: string | undefined; ;) {
    const keys = await ctx.store.listKeys('', startAfter === undefined ? {} : { startAfter });
    if (keys.length === 0) break;
    for (const key of keys) manifest.objects.push(await copyObject(ctx, out, key));
    startAfter = keys[keys.length - 1];
  }
  const copied = new Set(manifest.objects.map((o) => o.key));
  const missing = named.filter((k) => !copied.has(k));
  if (missing.length > 0) {
    throw new BackupError(
      `objects named by the database were not found in the store (removed while the backup ran?): ${missing.slice(0, 10).join(', ')}`,
    );
  }
  if (opts.includeKeys) await copyKeys(ctx, out, manifest);
  manifest.notIncluded = notIncluded(ctx, opts.includeKeys);
  fs.writeFileSync(path.join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return {
    out,
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
    objects: manifest.objects.length,
    objectBytes: manifest.objects.reduce((n, o) => n + o.size, 0),
    keysIncluded: opts.includeKeys,
    notIncluded: manifest.notIncluded,
  };
}
