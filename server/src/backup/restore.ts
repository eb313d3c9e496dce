/**
 * `npm run admin -- restore --from <dir>`: a backup (backup.ts) written back into an empty installation (a new
 * DATA_DIR, or an empty PostgreSQL database and an empty bucket), then checked.
 *
 * In order: the manifest and every file it lists are checked against their sha256 (a changed backup is refused
 * before anything is written); the database is migrated to the backup's own migration and must hold no
 * organization or user, the store no object (else refused); the keys (when the backup has them) go to
 * DATA_DIR/keys; every object is written back and read again against its sha256 (vault objects under their lock,
 * through the store's vault copy); the rows go in one transaction; the later migrations run; and the checks of
 * restore-checks.ts say whether every file, certificate and audit chain holds.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../shared/context.js';
import { backupTables, loadTables } from '../platform/db/backup-tables.js';
import { migrateToLatest } from '../platform/db/database.js';
import { migrations } from '../platform/db/migrations/index.js';
import type { VaultLock } from '../platform/storage/index.js';
import { hasAccounts } from './backup-reads.js';
import { backupPath, BackupError, readManifest, verifyBackupFiles, type Manifest, type ManifestObject } from './manifest.js';
import { checkRestoredInstallation, type RestoreChecks } from './restore-checks.js';

export type RestoreSummary = RestoreChecks & { objects: number; bytes: number; rows: number; keysRestored: number; locksExtended: number };

/** Reads the manifest and checks every file of the backup; answers the manifest and the migration to restore into. */
export async function openBackup(from: string): Promise<{ manifest: Manifest; migration: string }> {
  const dir = path.resolve(from);
  const manifest = readManifest(dir);
  await verifyBackupFiles(dir, manifest);
  const migration = manifest.database.migrations.at(-1);
  if (!migration) throw new BackupError('The backup names no database migration: it cannot be restored.');
  if (!(migration in migrations)) {
    throw new BackupError(
      `The backup was taken by a newer Strongroom (its migration ${migration} is unknown here): restore it with that version or a later one.`,
    );
  }
  return { manifest, migration };
}

/** Cold S3 classes cannot be read back at once; the vault copy itself verifies size and ETag for them. */
const NEEDS_RESTORE = new Set(['GLACIER', 'DEEP_ARCHIVE']);
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The lock a restored vault object gets: the one it had. A store only locks until a date still ahead, so a
 * retention already over (an object whose retention-end run had not removed it yet) is locked for one more day.
 */
function restoredLock(o: ManifestObject, now: Date): { lock: VaultLock; extended: boolean } {
  const soonest = new Date(now.getTime() + DAY_MS);
  const retainUntil = o.lock ? new Date(o.lock.retainUntil) : soonest;
  const extended = retainUntil.getTime() < soonest.getTime();
  return { lock: { mode: 'COMPLIANCE', retainUntil: extended ? soonest : retainUntil, legalHold: o.lock?.legalHold ?? false }, extended };
}

async function assertEmpty(ctx: Pick<AppContext, 'db' | 'store'>): Promise<void> {
  if (await hasAccounts(ctx.db)) {
    throw new BackupError(
      'The target installation is not empty (it has organizations or users): restore only into a new DATA_DIR or an empty database.',
    );
  }
  const [first] = await ctx.store.listKeys('', { limit: 1 });
  if (first !== undefined) {
    throw new BackupError(
      `The target object store is not empty (it holds ${first}): restore only into an empty store (a new DATA_DIR or bucket).`,
    );
  }
}

/** The target's tables must be the backup's, column for column: rows never go into a schema they were not taken from. */
async function assertSameSchema(ctx: Pick<AppContext, 'db'>, manifest: Manifest): Promise<void> {
  const target = new Map((await backupTables(ctx.db)).map((t) => [t.name, t.columns.join(',')]));
  const differing = manifest.tables.filter((t) => target.get(t.name) !== t.columns.join(',')).map((t) => t.name);
  const extra = [...target.keys()].filter((name) => !manifest.tables.some((t) => t.name === name));
  if (differing.length > 0 || extra.length > 0) {
    throw new BackupError(
      `The target database's tables differ from the backup's (${[...differing, ...extra].join(', ')}): restore into a database that has run no later migration.`,
    );
  }
}

function restoreKeys(dataDir: string, dir: string, manifest: Manifest): number {
  if (manifest.keys.length === 0) return 0;
  const keysDir = path.join(dataDir, 'keys');
  fs.mkdirSync(keysDir, { recursive: true, mode: 0o700 });
  for (const k of manifest.keys) {
    if (!/^[A-Za-z0-9._-]+$/.test(k.name) || k.name.startsWith('.')) throw new BackupError(`the backup names an odd key file: ${k.name}`);
    const target = path.join(keysDir, k.name);
    const bytes = fs.readFileSync(backupPath(dir, k.file));
    if (fs.existsSync(target)) {
      if (!fs.readFileSync(target).equals(bytes))
        throw new BackupError(`${target} already holds another key: remove it or restore without it`);
      continue;
    }
    fs.writeFileSync(target, bytes, { mode: 0o600, flag: 'wx' });
  }
  return manifest.keys.length;
}

async function restoreObjects(
  ctx: Pick<AppContext, 'store'>,
  dir: string,
  manifest: Manifest,
): Promise<{ bytes: number; locksExtended: number }> {
  let bytes = 0;
  let locksExtended = 0;
  const now = new Date();
  for (const o of manifest.objects) {
    const file = backupPath(dir, o.file);
    const put = (key: string) =>
      ctx.store.putObject(key, fs.createReadStream(file), { length: o.size, ...(o.contentType ? { contentType: o.contentType } : {}) });
    if (o.key.startsWith('vault/')) {
      // Vault keys are written only under their lock: the bytes go to a staging key, then through the vault copy.
      const staging = `restore-staging/${randomUUID()}`;
      await put(staging);
      const { lock, extended } = restoredLock(o, now);
      try {
        await ctx.store.copyToVault({
          sourceKey: staging,
          vaultKey: o.key,
          lock,
          ...(o.storageClass ? { storageClass: o.storageClass } : {}),
        });
      } finally {
        await ctx.store.delete(staging);
      }
      if (extended) locksExtended += 1;
    } else {
      await put(o.key);
    }
    if (!NEEDS_RESTORE.has(o.storageClass ?? '')) {
      const sha = await ctx.store.sha256(o.key);
      if (sha !== o.sha256)
        throw new BackupError(`the object ${o.key} reads back with another sha256 than the backup's: the store did not keep it`);
    }
    bytes += o.size;
  }
  return { bytes, locksExtended };
}

/** Restores the opened backup into the installation `ctx` (migrated to the backup's migration by the caller). */
export async function runRestore(ctx: AppContext, from: string, manifest: Manifest): Promise<RestoreSummary> {
  const dir = path.resolve(from);
  await assertEmpty(ctx);
  await assertSameSchema(ctx, manifest);
  const keysRestored = restoreKeys(ctx.config.dataDir, dir, manifest);
  const { bytes, locksExtended } = await restoreObjects(ctx, dir, manifest);
  await loadTables(
    ctx.db,
    manifest.tables.map((t) => ({ ...t, file: backupPath(dir, t.file) })),
    manifest.sequences,
  );
  await migrateToLatest(ctx.db);
  const checks = await checkRestoredInstallation(ctx, manifest);
  return {
    ...checks,
    objects: manifest.objects.length,
    bytes,
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
    keysRestored,
    locksExtended,
  };
}
