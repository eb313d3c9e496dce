/**
 * The installation's keyring: every Ed25519 key it has signed certificates and audit chain heads with, when each
 * came into use (notBefore) and when it was retired (notAfter).
 *
 * The authority is the write-once store. Each key is recorded once under a ten-year COMPLIANCE lock as
 * `vault/signing-keys/<keyId>.json` (its public key and notBefore), and each retirement as
 * `vault/signing-keys/<keyId>.retired-<notAfter>.json`. The signing_keys table is only a cache of those
 * records: a key is published or trusted only when its write-once record exists and holds the same public key,
 * so whoever can write the database cannot add a trusted key. Only a process holding a private key records its
 * public key; a key's period is read from its record, and it ends no later than the next recorded key's start.
 */
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { PublishedSigningKey } from '@strongroom/contracts';
import type { Database } from './db/database.js';
import { replaceFileKey } from './keys.js';
import { certificateSigner, newPrivateKeyPem, signerOfPem, signingKeyFile, type CertificateSigner } from './signing.js';
import { canonicalJson, keyIdOf } from './signing-verify.js';
import { BlobNotFoundError, BlobObjectExistsError, type BlobStore } from './storage/blob-store.js';

/** What the keyring needs of the app's context (AppContext has it all). */
export type SigningKeysContext = {
  config: { signingPrivateKey?: string; dataDir: string };
  db: Database;
  store: BlobStore;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
};

/** A store-confirmed key: the public key and the period it may have signed in (notAfter null: still in use). */
export type TrustedSigningKey = { publicKeyPem: string; notBefore: Date; notAfter: Date | null };

const RECORD_PREFIX = 'vault/signing-keys/';
/** How long a key's records stay locked: as long as the certificates they let a reader check are kept. */
const RECORD_RETENTION_YEARS = 10;
/** How long a confirmed key list is reused before the database and the store are read again. */
const CACHE_MS = 60_000;
const KEY_ID = /^[0-9a-f]{64}$/;
const RECORD_KIND = 'strongroom-signing-key';
const RETIREMENT_KIND = 'strongroom-signing-key-retirement';

type KeyRecord = { kind: string; keyId: string; algorithm: string; publicKeyPem: string; fingerprint: string; notBefore: string };

export function signingKeyRecordKey(keyId: string): string {
  return `${RECORD_PREFIX}${keyId}.json`;
}

export function signingKeyRetirementKey(keyId: string, notAfter: Date): string {
  return `${RECORD_PREFIX}${keyId}.retired-${notAfter.toISOString().replace(/[-:]/g, '')}.json`;
}

/** Records are written as canonical JSON, so writing the same facts again gives the same bytes (an idempotent write). */
function recordBytes(value: unknown): Buffer {
  return Buffer.from(`${canonicalJson(value)}\n`, 'utf8');
}

/** Ten years from the record's own date, so a repeated write asks for the same lock; never a date already past. */
function recordLock(from: Date) {
  const until = new Date(from);
  until.setUTCFullYear(until.getUTCFullYear() + RECORD_RETENTION_YEARS);
  const soonest = Date.now() + 24 * 3600 * 1000;
  return { mode: 'COMPLIANCE' as const, retainUntil: until.getTime() > soonest ? until : new Date(soonest), legalHold: false };
}

async function readSmall(stream: Readable, limit = 64 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw new Error('a signing key record is larger than any record Strongroom writes');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The key's write-once record when it exists and is sound (its id is its key's sha256); null otherwise. */
async function readKeyRecord(store: BlobStore, keyId: string): Promise<KeyRecord | null> {
  let bytes: Buffer;
  try {
    bytes = await readSmall(await store.getStream(signingKeyRecordKey(keyId)));
  } catch (err) {
    if (err instanceof BlobNotFoundError) return null;
    throw err;
  }
  let record: Partial<KeyRecord>;
  try {
    record = JSON.parse(bytes.toString('utf8')) as Partial<KeyRecord>;
  } catch {
    return null;
  }
  if (
    record.kind !== RECORD_KIND ||
    record.keyId !== keyId ||
    record.fingerprint !== keyId ||
    record.algorithm !== 'Ed25519' ||
    typeof record.publicKeyPem !== 'string' ||
    typeof record.notBefore !== 'string' ||
    Number.isNaN(Date.parse(record.notBefore))
  ) {
    return null;
  }
  try {
    if (keyIdOf(record.publicKeyPem) !== keyId) return null;
  } catch {
    return null;
  }
  return record as KeyRecord;
}

/** Confirmed key lists, per database, for a short while. */
const confirmedCache = new WeakMap<object, { until: number; keys: Promise<PublishedSigningKey[]> }>();

function forgetConfirmedKeys(ctx: SigningKeysContext): void {
  confirmedCache.delete(ctx.db);
}

async function confirmKeys(ctx: SigningKeysContext): Promise<PublishedSigningKey[]> {
  const rows = await ctx.db.selectFrom('signingKeys').selectAll().execute();
  const confirmed: { row: (typeof rows)[number]; notBefore: Date }[] = [];
  for (const row of rows) {
    if (!KEY_ID.test(row.keyId)) continue;
    const record = await readKeyRecord(ctx.store, row.keyId);
    if (!record || record.publicKeyPem !== row.publicKeyPem) {
      ctx.log.warn({ keyId: row.keyId }, 'signing key in the database without a matching write-once record: not published, not trusted');
      continue;
    }
    confirmed.push({ row, notBefore: new Date(record.notBefore) });
  }
  confirmed.sort((a, b) => a.notBefore.getTime() - b.notBefore.getTime() || a.row.keyId.localeCompare(b.row.keyId));
  return confirmed.map(({ row, notBefore }, i) => {
    // A key's period ends when it was retired, and in any case when the next recorded key came into use.
    const next = confirmed[i + 1]?.notBefore ?? null;
    const ends = [row.notAfter, next].filter((d): d is Date => d !== null).map((d) => d.getTime());
    const notAfter = ends.length > 0 ? new Date(Math.min(...ends)) : null;
    return {
      keyId: row.keyId,
      algorithm: 'Ed25519' as const,
      publicKeyPem: row.publicKeyPem,
      fingerprint: row.keyId,
      notBefore: notBefore.toISOString(),
      notAfter: notAfter ? notAfter.toISOString() : null,
    };
  });
}

/**
 * Every key the installation has signed with, oldest first, each confirmed by its write-once record: what
 * GET /.well-known/strongroom-signing-keys publishes. Reused for a minute.
 */
export function publishedSigningKeys(ctx: SigningKeysContext): Promise<PublishedSigningKey[]> {
  const cached = confirmedCache.get(ctx.db);
  if (cached && cached.until > Date.now()) return cached.keys;
  const keys = confirmKeys(ctx);
  const entry = { until: Date.now() + CACHE_MS, keys };
  confirmedCache.set(ctx.db, entry);
  keys.catch(() => {
    if (confirmedCache.get(ctx.db) === entry) confirmedCache.delete(ctx.db);
  });
  return keys;
}

/** The store-confirmed key with this id and the period it may have signed in; null for a key the installation never recorded. */
export async function trustedSigningKey(ctx: SigningKeysContext, keyId: string): Promise<TrustedSigningKey | null> {
  let key = (await publishedSigningKeys(ctx)).find((k) => k.keyId === keyId);
  if (!key && KEY_ID.test(keyId)) {
    // A key another process recorded within the last minute: read the keyring again before saying no.
    forgetConfirmedKeys(ctx);
    key = (await publishedSigningKeys(ctx)).find((k) => k.keyId === keyId);
  }
  if (!key) return null;
  return {
    publicKeyPem: key.publicKeyPem,
    notBefore: new Date(key.notBefore),
    notAfter: key.notAfter === null ? null : new Date(key.notAfter),
  };
}

/**
 * What registering the signer's key found: 'published' (recorded now, retiring the keys it replaces), 'current'
 * (already the key in use), 'retired' (the key was retired before: it is not brought back) or 'superseded' (a key
 * that came into use later is still active).
 */
export type SigningKeyRegistration = {
  keyId: string;
  state: 'published' | 'current' | 'retired' | 'superseded';
  notBefore: Date;
  retiredKeyIds: string[];
};

/**
 * Records the key the installation signs with (the configured one unless `signer` is given): in the table, and
 * once in the write-once store. A key seen for the first time retires the active one (its notAfter is the new
 * key's notBefore). Safe when several processes do it at once: the insert does nothing on conflict, the
 * retirement only touches keys still active, and each write-once record is built from the row, so every process
 * writes the same bytes. The installation's first key covers everything signed since the first organization
 * was made, since certificates can be older than the keyring.
 */
export async function registerSigningKey(ctx: SigningKeysContext, signer?: CertificateSigner): Promise<SigningKeyRegistration> {
  const { keyId, publicKeyPem } = signer ?? (await certificateSigner(ctx.config));
  const now = new Date();
  const { row, state } = await ctx.db.transaction().execute(async (trx) => {
    let notBefore = now;
    const any = await trx.selectFrom('signingKeys').select('keyId').limit(1).executeTakeFirst();
    if (!any) {
      const first = await trx
        .selectFrom('organizations')
        .select(sql<Date | null>`min(created_at)`.as('first'))
        .executeTakeFirst();
      if (first?.first && new Date(first.first).getTime() < now.getTime()) notBefore = new Date(first.first);
    }
    const inserted = await trx
      .insertInto('signingKeys')
      .values({ keyId, algorithm: 'Ed25519', publicKeyPem, notBefore })
      .onConflict((oc) => oc.column('keyId').doNothing())
      .returning('keyId')
      .executeTakeFirst();
    const row = await trx.selectFrom('signingKeys').selectAll().where('keyId', '=', keyId).executeTakeFirstOrThrow();
    // The row is a cache the process holding the private key may correct: the public key is the signer's own.
    if (row.publicKeyPem !== publicKeyPem) {
      await trx.updateTable('signingKeys').set({ publicKeyPem }).where('keyId', '=', keyId).execute();
      row.publicKeyPem = publicKeyPem;
    }
    if (row.notAfter !== null) return { row, state: 'retired' as const };
    await trx
      .updateTable('signingKeys')
      .set({ notAfter: row.notBefore })
      .where('notAfter', 'is', null)
      .where('keyId', '<>', keyId)
      .where('notBefore', '<=', row.notBefore)
      .execute();
    const newer = await trx
      .selectFrom('signingKeys')
      .select('keyId')
      .where('notAfter', 'is', null)
      .where('notBefore', '>', row.notBefore)
      .executeTakeFirst();
    return { row, state: newer ? ('superseded' as const) : inserted ? ('published' as const) : ('current' as const) };
  });

  let notBefore = row.notBefore;
  const record = { kind: RECORD_KIND, keyId, algorithm: 'Ed25519', publicKeyPem, fingerprint: keyId, notBefore: notBefore.toISOString() };
  try {
    await ctx.store.putLocked({
      key: signingKeyRecordKey(keyId),
      body: recordBytes(record),
      contentType: 'application/json',
      lock: recordLock(notBefore),
    });
  } catch (err) {
    // Already recorded with another notBefore (the table was rebuilt or restored): the write-once record stands,
    // and the table follows it.
    if (!(err instanceof BlobObjectExistsError)) throw err;
    const existing = await readKeyRecord(ctx.store, keyId);
    if (!existing || existing.publicKeyPem !== publicKeyPem) throw err;
    notBefore = new Date(existing.notBefore);
    await ctx.db.updateTable('signingKeys').set({ notBefore }).where('keyId', '=', keyId).execute();
  }

  // The keys this one replaced: their retirement recorded once (again after a crash between the two steps).
  const retired =
    state === 'retired'
      ? []
      : await ctx.db
          .selectFrom('signingKeys')
          .select(['keyId', 'notAfter'])
          .where('notAfter', '=', row.notBefore)
          .where('keyId', '<>', keyId)
          .execute();
  for (const old of retired) {
    if (!KEY_ID.test(old.keyId) || old.notAfter === null) continue;
    const retirement = {
      kind: RETIREMENT_KIND,
      keyId: old.keyId,
      fingerprint: old.keyId,
      notAfter: old.notAfter.toISOString(),
      successorKeyId: keyId,
    };
    try {
      await ctx.store.putLocked({
        key: signingKeyRetirementKey(old.keyId, old.notAfter),
        body: recordBytes(retirement),
        contentType: 'application/json',
        lock: recordLock(old.notAfter),
      });
    } catch (err) {
      if (!(err instanceof BlobObjectExistsError)) throw err;
    }
  }
  forgetConfirmedKeys(ctx);
  return { keyId, state, notBefore, retiredKeyIds: retired.map((r) => r.keyId) };
}

/** Logs what a registration found, in the words an operator needs. */
function logRegistration(ctx: SigningKeysContext, r: SigningKeyRegistration): void {
  if (r.state === 'published') {
    ctx.log.info({ keyId: r.keyId, retiredKeyIds: r.retiredKeyIds }, 'signing key published');
  } else if (r.state === 'retired') {
    ctx.log.error(
      { keyId: r.keyId },
      'The configured signing key was retired earlier: what it signs now will not verify against the published keys. Configure the current signing key or a new one.',
    );
  } else if (r.state === 'superseded') {
    ctx.log.error(
      { keyId: r.keyId },
      'A newer signing key is in use: what this process signs will not verify against the published keys. Give every process the same signing key.',
    );
  }
}

const RETRY_MS = 60_000;

/**
 * Start-up: registers the configured key. When the database or the store cannot be reached the process still
 * starts, says so, and tries again every minute until the key is recorded. Answers a stop for shutdown.
 */
export async function registerSigningKeyAtStart(ctx: SigningKeysContext): Promise<{ stop(): void }> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = async (): Promise<void> => {
    try {
      logRegistration(ctx, await registerSigningKey(ctx));
    } catch (err) {
      if (stopped) return;
      ctx.log.error({ err }, 'the signing key could not be recorded; trying again in a minute');
      timer = setTimeout(() => void attempt(), RETRY_MS);
      timer.unref();
    }
  };
  await attempt();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Replaces the key kept in DATA_DIR with a new one: the current key is recorded first (if it never was), the new
 * key file is renamed into place, then the new key is recorded, retiring the old one, which stays published so
 * that what it signed still verifies. Not for a key given as SIGNING_PRIVATE_KEY (only its owner can replace it).
 */
export async function rotateFileSigningKey(ctx: SigningKeysContext): Promise<{ retiredKeyId: string; keyId: string; fingerprint: string }> {
  if (ctx.config.signingPrivateKey !== undefined)
    throw new Error('the signing key is configured as SIGNING_PRIVATE_KEY, not kept in DATA_DIR');
  const old = await certificateSigner(ctx.config);
  await registerSigningKey(ctx, old);
  const pem = newPrivateKeyPem();
  const next = signerOfPem(pem);
  await replaceFileKey(signingKeyFile(ctx.config), pem);
  const registered = await registerSigningKey(ctx, next);
  return { retiredKeyId: registered.retiredKeyIds[0] ?? old.keyId, keyId: next.keyId, fingerprint: next.keyId };
}
