/**
 * The pure half of certificate signing: canonical JSON, key ids and signature checks. It imports nothing but
 * node:crypto so that a third party can check a Strongroom certificate with no server, no database and no
 * network (scripts/verify-certificate.mjs runs it on its own).
 */
import { createHash, createPublicKey, verify } from 'node:crypto';

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
