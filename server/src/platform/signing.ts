/**
 * Certificates signed with the installation's Ed25519 key. The key is SIGNING_PRIVATE_KEY (PKCS#8 PEM) when
 * configured, else DATA_DIR/keys/signing-ed25519.pem, made once on first use (mode 0600) and replaced only by
 * rotate-signing-key. Which keys are trusted, and when, is kept in signing-keys.ts. A certificate is the
 * payload, the signature over its canonical JSON (signing-verify.ts), the public key (SPKI PEM) and its id.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SignedCertificate, VaultCertificatePayload } from '@strongroom/contracts';
import { configuredOrFileKey } from './keys.js';
import { canonicalJson, checkSignedCertificate, keyIdOf } from './signing-verify.js';

export { canonicalJson } from './signing-verify.js';

const SIGNING_KEY_FILE = path.join('keys', 'signing-ed25519.pem');

export type CertificateSigner = {
  keyId: string;
  publicKeyPem: string;
  sign(payload: VaultCertificatePayload): SignedCertificate;
  /** The base64 Ed25519 signature over any value's canonical JSON (a signed audit chain head). */
  signJson(value: unknown): string;
};

/** A fresh Ed25519 private key as PKCS#8 PEM. */
export function newPrivateKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function signerOf(privateKey: KeyObject): CertificateSigner {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the certificate signing key must be an Ed25519 key');
  const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  const keyId = keyIdOf(publicKeyPem);
  return {
    keyId,
    publicKeyPem,
    sign(payload) {
      const signature = sign(null, Buffer.from(canonicalJson(payload), 'utf8'), privateKey).toString('base64');
      return { payload, algorithm: 'Ed25519', keyId, publicKey: publicKeyPem, signature };
    },
    signJson(value) {
      return sign(null, Buffer.from(canonicalJson(value), 'utf8'), privateKey).toString('base64');
    },
  };
}

/** Signers by key source; a file key is kept with the file's identity, so a replaced file is read again. */
const signers = new Map<string, { stamp: string | null; signer: Promise<CertificateSigner> }>();

/** DATA_DIR/keys/signing-ed25519.pem, where the key is kept when SIGNING_PRIVATE_KEY is not set. */
export function signingKeyFile(config: { dataDir: string }): string {
  return path.resolve(config.dataDir, SIGNING_KEY_FILE);
}

/** What changes when the key file is replaced (a rotation renames a new file into place); null when there is none. */
async function fileStamp(file: string): Promise<string | null> {
  try {
    const st = await fs.stat(file);
    return `${st.dev}:${st.ino}:${st.mtimeMs}:${st.size}`;
  } catch {
    return null;
  }
}

/**
 * The installation's signer, loaded (or made) once per key source. A key kept in DATA_DIR is read again when the
 * file has been replaced (rotate-signing-key), so a running server signs with the new key from then on.
 */
export async function certificateSigner(config: { signingPrivateKey?: string; dataDir: string }): Promise<CertificateSigner> {
  const configured = config.signingPrivateKey;
  const file = signingKeyFile(config);
  const cacheKey = configured ?? `file:${file}`;
  const stamp = configured === undefined ? await fileStamp(file) : null;
  const cached = signers.get(cacheKey);
  if (cached && cached.stamp === stamp) return cached.signer;
  const signer = configuredOrFileKey(configured, file, newPrivateKeyPem).then((pem) => signerOf(createPrivateKey(pem)));
  const entry = { stamp, signer };
  signer.catch(() => {
    if (signers.get(cacheKey) === entry) signers.delete(cacheKey);
  });
  signers.set(cacheKey, entry);
  return signer;
}

/** The signer of a private key given as PKCS#8 PEM (a key about to replace the installation's). */
export function signerOfPem(privateKeyPem: string): CertificateSigner {
  return signerOf(createPrivateKey(privateKeyPem));
}

/** Signs a certificate payload with the installation's key. */
export async function signCertificate(
  config: { signingPrivateKey?: string; dataDir: string },
  payload: VaultCertificatePayload,
): Promise<SignedCertificate> {
  return (await certificateSigner(config)).sign(payload);
}

/** Whether a signed certificate's signature, key id and algorithm hold (any key; pin one with checkSignedCertificate). */
export function verifyCertificate(signed: SignedCertificate): boolean {
  return checkSignedCertificate(signed).ok;
}

/** The bytes a certificate is stored and served as: its canonical JSON and a newline. */
export function certificateBytes(signed: SignedCertificate): Buffer {
  return Buffer.from(`${canonicalJson(signed)}\n`, 'utf8');
}
