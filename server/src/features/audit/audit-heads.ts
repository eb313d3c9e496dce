/**
 * Signed audit chain heads as the write-once store holds them. The store, not the database, is the authority on
 * how far a chain was signed: someone who can write the database can delete rows of audit_signed_heads, but not
 * the locked objects under vault/audit-heads/<organization>/.
 *
 * A head object is named `<seq, 20 digits>-<signed at, YYYYMMDDTHHMMSSZ>.json`, so that the store's key order is
 * the chain's order and the newest head is the last key under the organization's prefix. Its content is the
 * signed document (payload, algorithm, keyId, publicKey, signature) as canonical JSON and a newline; it counts
 * only when it is byte for byte that, its signature holds under a key the installation trusts, and its payload
 * names this organization, and the position and time its name carries.
 */
import { BlobNotFoundError } from '../../platform/storage/blob-store.js';
import { certificateSigner } from '../../platform/signing.js';
import { trustedSigningKey } from '../../platform/signing-keys.js';
import { checkCertificateText } from '../../platform/signing-verify.js';
import type { AppContext } from '../../shared/context.js';

/** A stored head that passed every check. */
export type StoredHead = {
  seq: number;
  hash: string;
  signedAt: string;
  keyId: string;
  signature: string;
  objectKey: string;
  /** The object's bytes as text (the export carries them as they are stored). */
  text: string;
};

export type HeadPayload = {
  kind: 'audit-chain-head';
  version: 1;
  organizationId: string;
  chainKey: string;
  seq: number;
  hash: string;
  signedAt: string;
};

const SEQ_DIGITS = 20;
const NAME = /^(\d{1,20})-(\d{8}T\d{6}Z)\.json$/;
/** Stored heads read, newest first, before the search for a valid one gives up. */
const MAX_HEAD_READS = 20;

function headPrefix(organizationId: string): string {
  return `vault/audit-heads/${organizationId}/`;
}

/** `20261128T101500Z` for a whole-second time. */
function stampOf(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export function headObjectKey(organizationId: string, seq: number, signedAt: Date): string {
  return `${headPrefix(organizationId)}${String(seq).padStart(SEQ_DIGITS, '0')}-${stampOf(signedAt)}.json`;
}

export function headPayload(organizationId: string, seq: number, hash: string, signedAt: Date): HeadPayload {
  return { kind: 'audit-chain-head', version: 1, organizationId, chainKey: organizationId, seq, hash, signedAt: signedAt.toISOString() };
}

/** The position a head object's name carries (null for a name that is not a head's). */
function parseName(key: string, prefix: string): { seq: number; stamp: string } | null {
  const m = key.startsWith(prefix) ? NAME.exec(key.slice(prefix.length)) : null;
  return m ? { seq: Number(m[1]), stamp: m[2]! } : null;
}

/**
 * The public key the installation trusts under this id for a signature made at `signedAt`, or null: the key this
 * process signs with (it holds the private key), or a key of the keyring confirmed by its write-once record,
 * for signatures made within its period (a retired key signed nothing after its retirement).
 */
async function trustedKeyPem(ctx: AppContext, keyId: string, signedAt: Date): Promise<string | null> {
  const signer = await certificateSigner(ctx.config);
  if (signer.keyId === keyId) return signer.publicKeyPem;
  const key = await trustedSigningKey(ctx, keyId);
  if (!key || Number.isNaN(signedAt.getTime())) return null;
  if (signedAt < key.notBefore || (key.notAfter !== null && signedAt > key.notAfter)) return null;
  return key.publicKeyPem;
}

async function readText(ctx: AppContext, key: string): Promise<string | null> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await ctx.store.getStream(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    if (err instanceof BlobNotFoundError) return null;
    throw err;
  }
}

type HeadRead = { ok: true; head: StoredHead } | { ok: false; reason: string };

/** Reads one stored head and checks it (see the file's comment); a reason in words when it does not hold. */
async function readStoredHead(ctx: AppContext, organizationId: string, key: string): Promise<HeadRead> {
  const name = parseName(key, headPrefix(organizationId));
  if (!name) return { ok: false, reason: `${key} is not named as a signed head of this organization` };
  const text = await readText(ctx, key);
  if (text === null) return { ok: false, reason: `${key} is not in the write-once store` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${key} is not JSON` };
  }
  const doc = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
    keyId?: unknown;
    signature?: unknown;
    payload?: Partial<HeadPayload>;
  };
  const keyId = typeof doc.keyId === 'string' ? doc.keyId : '';
  const p = doc.payload ?? {};
  const signedAt = typeof p.signedAt === 'string' ? new Date(p.signedAt) : new Date(NaN);
  const trusted = await trustedKeyPem(ctx, keyId, signedAt);
  if (!trusted) return { ok: false, reason: `${key} is signed with key ${keyId || '(none)'}, which this installation does not trust` };
  const check = checkCertificateText(text, { trustedPublicKeyPem: trusted });
  if (!check.ok) return { ok: false, reason: `${key}: ${check.problems[0]}` };
  if (
    p.kind !== 'audit-chain-head' ||
    p.organizationId !== organizationId ||
    p.chainKey !== organizationId ||
    p.seq !== name.seq ||
    typeof p.hash !== 'string' ||
    !/^[0-9a-f]{64}$/.test(p.hash) ||
    Number.isNaN(signedAt.getTime()) ||
    stampOf(signedAt) !== name.stamp
  ) {
    return { ok: false, reason: `${key}: its signed content does not match its name or organization` };
  }
  const signature = String(doc.signature);
  return { ok: true, head: { seq: name.seq, hash: p.hash, signedAt: signedAt.toISOString(), keyId, signature, objectKey: key, text } };
}

/** Every key under the prefix after `startAfter`, page by page. */
async function listAll(ctx: AppContext, prefix: string, startAfter?: string): Promise<string[]> {
  const keys: string[] = [];
  let after = startAfter;
  for (;;) {
    const page = await ctx.store.listKeys(prefix, { startAfter: after });
    keys.push(...page);
    if (page.length === 0) return keys;
    after = page[page.length - 1];
  }
}

export type NewestHead = {
  /** The newest stored head that holds; null when the store holds none. */
  head: StoredHead | null;
  /** How the database's newest row (the hint) fared against the store; null without a row. */
  hint: HeadRead | null;
  /** Stored heads newer than the one answered that did not hold. */
  rejected: Array<{ seq: number; reason: string }>;
};

/**
 * The organization's newest signed head in the write-once store. The database's newest row names an object to
 * start from (`hintKey`): when that object holds, only the keys after it are listed; when it is missing or does
 * not hold, the whole prefix is. Heads that do not hold are passed over (and reported); an old name without the
 * padded position is read by the position it carries.
 */
export async function newestStoredHead(ctx: AppContext, organizationId: string, hintKey: string | undefined): Promise<NewestHead> {
  const prefix = headPrefix(organizationId);
  let hint: HeadRead | null = null;
  let keys: string[];
  if (hintKey !== undefined) {
    hint = await readStoredHead(ctx, organizationId, hintKey);
    keys = hint.ok ? await listAll(ctx, prefix, hintKey) : await listAll(ctx, prefix);
  } else {
    keys = await listAll(ctx, prefix);
  }
  const base = hint?.ok ? hint.head : null;
  const candidates = keys
    .flatMap((key) => {
      const name = parseName(key, prefix);
      return name && (!base || name.seq >= base.seq) && key !== base?.objectKey ? [{ key, ...name }] : [];
    })
    .sort((a, b) => b.seq - a.seq || (a.stamp < b.stamp ? 1 : a.stamp > b.stamp ? -1 : 0));
  const rejected: NewestHead['rejected'] = [];
  for (const c of candidates.slice(0, MAX_HEAD_READS)) {
    const read = await readStoredHead(ctx, organizationId, c.key);
    if (read.ok) return { head: base && base.seq > read.head.seq ? base : read.head, hint, rejected };
    rejected.push({ seq: c.seq, reason: read.reason });
  }
  return { head: base, hint, rejected };
}

/** The key position just after every head of `seq` and before any head of seq + 1. */
function afterHeadsOf(organizationId: string, seq: number): string {
  // Heads of a position are `<seq>-<stamp>.json`; '.' sorts after '-' and before any digit.
  return `${headPrefix(organizationId)}${String(seq).padStart(SEQ_DIGITS, '0')}.`;
}

/** The first stored head of this exact position that holds, or null. */
async function storedHeadAt(ctx: AppContext, organizationId: string, seq: number): Promise<StoredHead | null> {
  const keys = await ctx.store.listKeys(`${headPrefix(organizationId)}${String(seq).padStart(SEQ_DIGITS, '0')}-`, { limit: 20 });
  for (const key of keys) {
    const read = await readStoredHead(ctx, organizationId, key);
    if (read.ok) return read.head;
  }
  return null;
}

/**
 * The stored heads that vouch for the entries firstSeq..lastSeq: `start`, a head at firstSeq - 1 (it proves the
 * hash the range starts from), and `newest`, the newest head within the range (it proves every entry up to its
 * own). The database's record of the newest one is where the search starts; the store is listed after it.
 */
export async function headsCoveringRange(
  ctx: AppContext,
  organizationId: string,
  firstSeq: number,
  lastSeq: number,
  hintKey: string | undefined,
): Promise<{ start: StoredHead | null; newest: StoredHead | null }> {
  const start = firstSeq > 1 ? await storedHeadAt(ctx, organizationId, firstSeq - 1) : null;
  const prefix = headPrefix(organizationId);
  let base: StoredHead | null = null;
  if (hintKey !== undefined) {
    const read = await readStoredHead(ctx, organizationId, hintKey);
    if (read.ok && read.head.seq >= firstSeq && read.head.seq <= lastSeq) base = read.head;
  }
  const candidates: Array<{ key: string; seq: number }> = [];
  let after = base ? base.objectKey : afterHeadsOf(organizationId, firstSeq - 1);
  for (;;) {
    const page = await ctx.store.listKeys(prefix, { startAfter: after });
    if (page.length === 0) break;
    let past = false;
    for (const key of page) {
      const name = parseName(key, prefix);
      if (!name) continue;
      if (name.seq > lastSeq) past = true;
      else if (name.seq >= firstSeq) candidates.push({ key, seq: name.seq });
    }
    if (past) break;
    after = page[page.length - 1]!;
  }
  candidates.sort((a, b) => b.seq - a.seq || (a.key < b.key ? 1 : -1));
  for (const c of candidates.slice(0, MAX_HEAD_READS)) {
    if (base && c.seq < base.seq) break;
    const read = await readStoredHead(ctx, organizationId, c.key);
    if (read.ok) return { start, newest: read.head };
  }
  return { start, newest: base };
}
