/**
 * Certificates signed with the installation's Ed25519 key. The key is SIGNING_PRIVATE_KEY (PKCS#8 PEM) when
 * configured, else DATA_DIR/keys/signing-ed25519.pem, made once on first use (mode 0600). A certificate is the
 * payload, the signature over its canonical JSON (signing-verify.ts), the public key (SPKI PEM) and its id.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
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

function newPrivateKeyPem(): string {
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

const signers = new Map<string, Promise<CertificateSigner>>();

/** The installation's signer, loaded (or made) once per key source. */
export function certificateSigner(config: { signingPrivateKey?: string; dataDir: string }): Promise<CertificateSigner> {
  const file = path.resolve(config.dataDir, SIGNING_KEY_FILE);
  const cacheKey = config.signingPrivateKey ?? `file:${file}`;
  let signer = signers.get(cacheKey);
  if (!signer) {
    signer = configuredOrFileKey(config.signingPrivateKey, file, newPrivateKeyPem).then((pem) => signerOf(createPrivateKey(pem)));
    signer.catch(() => signers.delete(cacheKey));
    signers.set(cacheKey, signer);
  }
  return signer;
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
