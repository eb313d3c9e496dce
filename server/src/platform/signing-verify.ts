/**
 * The pure half of certificate signing: canonical JSON, key ids, signature checks and the checks that tie a
 * signing key to the installation (a pinned key or fingerprint, or the installation's published key list). It
 * imports nothing but node built-ins so that a third party can check a Strongroom certificate with no server and
 * no database (scripts/verify-certificate.mjs runs it on its own; only a --keys-url address is fetched).
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** The fields of a signed certificate this file reads (the full shape is contracts' signedCertificateSchema). */
type SignedDocument = { payload: unknown; algorithm: string; keyId: string; publicKey: string; signature: string };

/**
 * The one text a payload is signed as: JSON with every object's keys sorted (by UTF-16 code units, recursively),
 * no spaces, object members whose value is undefined left out (as JSON.stringify does). Numbers must be finite.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no place for a non-finite number');
      return JSON.stringify(value);
    case 'object': {
      const entries = Object.keys(value as object)
        .sort()
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
      return `{${entries.join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON has no place for a ${typeof value}`);
  }
}

/** A public key's id: the hex sha256 of its SPKI DER encoding. */
export function keyIdOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex');
}

export type CertificateCheck = { ok: boolean; problems: string[] };

/**
 * Checks a signed certificate: Ed25519, the key id is the id of the public key it carries, the signature is that
 * key's signature over the payload's canonical JSON, and (when `trustedPublicKeyPem` is given) the key is that one.
 * Answers every problem found, in words; ok only when there is none.
 */
export function checkSignedCertificate(doc: unknown, opts: { trustedPublicKeyPem?: string } = {}): CertificateCheck {
  const problems: string[] = [];
  if (typeof doc !== 'object' || doc === null) return { ok: false, problems: ['the certificate is not a JSON object'] };
  const d = doc as Partial<Record<keyof SignedDocument, unknown>>;
  for (const field of ['algorithm', 'keyId', 'publicKey', 'signature'] as const) {
    if (typeof d[field] !== 'string') problems.push(`the certificate has no ${field}`);
  }
  if (typeof d.payload !== 'object' || d.payload === null) problems.push('the certificate has no payload');
  if (problems.length > 0) return { ok: false, problems };
  const signed = d as SignedDocument;
  if (signed.algorithm !== 'Ed25519') problems.push(`the algorithm is ${signed.algorithm}, not Ed25519`);
  let keyId: string;
  try {
    keyId = keyIdOf(signed.publicKey);
  } catch {
    return { ok: false, problems: [...problems, 'the public key cannot be read'] };
  }
  if (createPublicKey(signed.publicKey).export({ type: 'spki', format: 'pem' }).toString() !== signed.publicKey) {
    problems.push('the public key is not written as a plain SPKI PEM');
  }
  if (keyId !== signed.keyId) problems.push(`the key id ${signed.keyId} is not the id of the public key it carries (${keyId})`);
  if (opts.trustedPublicKeyPem !== undefined) {
    let trusted: string | null = null;
    try {
      trusted = keyIdOf(opts.trustedPublicKeyPem);
    } catch {
      problems.push('the trusted public key cannot be read');
    }
    if (trusted !== null && trusted !== keyId)
      problems.push(`the certificate was signed with key ${keyId}, not the trusted key ${trusted}`);
  }
  if (Buffer.from(signed.signature, 'base64').toString('base64') !== signed.signature) problems.push('the signature is not plain base64');
  let valid = false;
  try {
    const key = createPublicKey(signed.publicKey);
    if (key.asymmetricKeyType !== 'ed25519') problems.push('the public key is not an Ed25519 key');
    else valid = verify(null, Buffer.from(canonicalJson(signed.payload), 'utf8'), key, Buffer.from(signed.signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) problems.push('the signature does not match the payload');
  return { ok: problems.length === 0, problems };
}

/**
 * Checks a certificate file's text. Strongroom stores and serves a certificate as its canonical JSON and a final
 * newline, so any byte changed, added or removed in the file is a problem even where JSON would not care
 * (spaces, key order, escapes); then the signature is checked as checkSignedCertificate does.
 */
export function checkCertificateText(text: string, opts: { trustedPublicKeyPem?: string } = {}): CertificateCheck & { doc: unknown } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { ok: false, problems: ['the file is not JSON'], doc: null };
  }
  const result = checkSignedCertificate(doc, opts);
  const problems = [...result.problems];
  let canonical: string | null = null;
  try {
    canonical = canonicalJson(doc);
  } catch {
    problems.push('the file holds values canonical JSON cannot carry');
  }
  if (canonical !== null && text !== canonical && text !== `${canonical}\n`) {
    problems.unshift('the file is not byte for byte the certificate as Strongroom wrote it (spaces, order or escapes differ)');
  }
  return { ok: problems.length === 0, problems, doc };
}

// ------------------------------------------------------------------------------------------ trusted keys

/** A published signing key, as GET /.well-known/strongroom-signing-keys lists it. */
type PublishedKey = {
  keyId: string;
  algorithm: string;
  publicKeyPem: string;
  fingerprint: string;
  notBefore: string;
  notAfter: string | null;
};

/**
 * What ties a signature to the installation. Every anchor given must hold: a public key handed over out of band,
 * a fingerprint (printed in an engagement letter, say), or the installation's published key list.
 */
export type TrustAnchor =
  | { kind: 'public-key'; publicKeyPem: string; source: string }
  | { kind: 'fingerprint'; fingerprint: string }
  | { kind: 'published-keys'; keys: PublishedKey[]; source: string };

/** A fingerprint as people copy it (upper case, grouped with spaces or colons) in the hex form keys are named by. */
function normalizeFingerprint(text: string): string | null {
  const hex = text.replace(/[\s:]/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/** Reads a published key list (the JSON document). Answers the keys, or the first reason the document is unusable. */
function parsePublishedKeys(value: unknown): { keys: PublishedKey[] } | { error: string } {
  const list = (value as { keys?: unknown } | null)?.keys;
  if (typeof value !== 'object' || value === null || !Array.isArray(list)) return { error: 'the key list has no "keys" array' };
  const keys: PublishedKey[] = [];
  for (const [i, entry] of list.entries()) {
    const e = (entry ?? {}) as Record<string, unknown>;
    for (const field of ['keyId', 'algorithm', 'publicKeyPem', 'fingerprint', 'notBefore'] as const) {
      if (typeof e[field] !== 'string') return { error: `key ${i + 1} of the list has no ${field}` };
    }
    if (e.notAfter !== null && typeof e.notAfter !== 'string')
      return { error: `key ${i + 1} of the list has no notAfter (a date or null)` };
    keys.push(e as PublishedKey);
  }
  return { keys };
}

function isTime(text: string | null | undefined): text is string {
  return typeof text === 'string' && !Number.isNaN(Date.parse(text));
}

/**
 * Whether a signature made with `signer.publicKeyPem` at `signer.signedAt` (the certificate's issuedAt, a head's
 * signedAt) is tied to the installation by every anchor given. Answers the problems, in words; none means trusted.
 * A published key counts only when its fingerprint is the sha256 of its own public key, and only for signatures
 * made between its notBefore and its notAfter (open while notAfter is null).
 */
export function checkKeyTrust(signer: { publicKeyPem: string; signedAt?: string | null }, anchors: TrustAnchor[]): string[] {
  let keyId: string;
  try {
    keyId = keyIdOf(signer.publicKeyPem);
  } catch {
    return ['the signing key cannot be read, so it cannot be tied to a trusted key'];
  }
  const problems: string[] = [];
  for (const anchor of anchors) {
    if (anchor.kind === 'public-key') {
      let trusted: string | null = null;
      try {
        trusted = keyIdOf(anchor.publicKeyPem);
      } catch {
        problems.push(`the trusted public key (${anchor.source}) cannot be read`);
      }
      if (trusted !== null && trusted !== keyId)
        problems.push(`signed with key ${keyId}, not the trusted key ${trusted} (${anchor.source})`);
    } else if (anchor.kind === 'fingerprint') {
      if (anchor.fingerprint !== keyId) problems.push(`signed with key ${keyId}, not the trusted fingerprint ${anchor.fingerprint}`);
    } else {
      const entry = anchor.keys.find((k) => k.keyId === keyId);
      if (!entry) {
        problems.push(`signed with key ${keyId}, which is not in the published key list (${anchor.source})`);
        continue;
      }
      let listed: string;
      try {
        listed = keyIdOf(entry.publicKeyPem);
      } catch {
        problems.push(`the published key ${keyId} cannot be read`);
        continue;
      }
      if (entry.algorithm !== 'Ed25519') problems.push(`the published key ${keyId} is listed as ${entry.algorithm}, not Ed25519`);
      if (listed !== keyId || entry.fingerprint !== listed) {
        problems.push(`the published key ${keyId} does not match its own public key (its sha256 is ${listed})`);
        continue;
      }
      if (!isTime(signer.signedAt)) {
        problems.push('the signature carries no readable date to compare with the published key’s period');
      } else if (!isTime(entry.notBefore) || (entry.notAfter !== null && !isTime(entry.notAfter))) {
        problems.push(`the published key ${keyId} has no readable notBefore/notAfter`);
      } else {
        const at = Date.parse(signer.signedAt);
        if (at < Date.parse(entry.notBefore)) problems.push(`signed at ${signer.signedAt}, before the key's notBefore ${entry.notBefore}`);
        if (entry.notAfter !== null && at > Date.parse(entry.notAfter)) {
          problems.push(`signed at ${signer.signedAt}, after the key was retired (notAfter ${entry.notAfter})`);
        }
      }
    }
  }
  return problems;
}

/** Hosts a key list may be fetched from over plain http: this machine only. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Reads a published key list from `source`: an https URL, an http URL on this machine (127.0.0.1 or localhost),
 * or a saved copy of the list (a file path). Redirects are refused, so a list is only ever read from the address
 * given. Throws an Error whose message says what went wrong.
 */
async function loadPublishedKeys(source: string): Promise<PublishedKey[]> {
  let text: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    const url = new URL(source);
    if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
      throw new Error(`${source}: a key list is fetched over https (plain http only from 127.0.0.1 or localhost)`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${source}: a key list is fetched over https`);
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(20_000), headers: { accept: 'application/json' } });
    } catch (err) {
      const why = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
      throw new Error(`cannot fetch ${source}: ${why}`, { cause: err });
    }
    if (!res.ok) throw new Error(`cannot fetch ${source}: HTTP ${res.status}`);
    text = await res.text();
  } else {
    try {
      text = await readFile(source, 'utf8');
    } catch (err) {
      throw new Error(`cannot read the key list ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
        cause: err,
      });
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`the key list ${source} is not JSON`);
  }
  const parsed = parsePublishedKeys(json);
  if ('error' in parsed) throw new Error(`the key list ${source} is unusable: ${parsed.error}`);
  return parsed.keys;
}

/**
 * The trust anchors of a command line: `--public-key <pem file>`, `--fingerprint <hex>`, `--keys-url <url or
 * file>`, each optional. Throws an Error naming the option that could not be used.
 */
export async function loadTrustAnchors(opts: { publicKeyFile?: string; fingerprint?: string; keysUrl?: string }): Promise<TrustAnchor[]> {
  const anchors: TrustAnchor[] = [];
  if (opts.publicKeyFile !== undefined) {
    let publicKeyPem: string;
    try {
      publicKeyPem = await readFile(opts.publicKeyFile, 'utf8');
    } catch (err) {
      throw new Error(
        `cannot read the public key ${opts.publicKeyFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    anchors.push({ kind: 'public-key', publicKeyPem, source: opts.publicKeyFile });
  }
  if (opts.fingerprint !== undefined) {
    const fingerprint = normalizeFingerprint(opts.fingerprint);
    if (!fingerprint) throw new Error(`--fingerprint ${opts.fingerprint}: a fingerprint is 64 hex digits (the sha256 of the key)`);
    anchors.push({ kind: 'fingerprint', fingerprint });
  }
  if (opts.keysUrl !== undefined)
    anchors.push({ kind: 'published-keys', keys: await loadPublishedKeys(opts.keysUrl), source: opts.keysUrl });
  return anchors;
}
