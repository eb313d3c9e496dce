import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import { MSG } from '@strongroom/contracts';
import type { Config } from '../../config.js';
import { configuredOrFileKey } from '../../platform/keys.js';
import { internalError } from '../../shared/errors.js';

/**
 * TOTP secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from MFA_ENCRYPTION_KEY, or from a
 * random key generated once into DATA_DIR/keys/mfa-encryption.key (mode 0600). A stored value reads
 * `v1:<base64url of iv | tag | ciphertext>`; the user's id is bound in as associated data, so a value copied
 * to another user's row does not decrypt. A value without the prefix is a secret stored before encryption
 * existed: it is still read, and written back encrypted at its next use.
 */
export const MFA_KEY_FILE = path.join('keys', 'mfa-encryption.key');
const PREFIX = 'v1:';

const keys = new Map<string, Promise<Buffer>>();

/** A key derived from the installation's MFA key material for one purpose (HKDF info), made once per process. */
function derivedKey(config: Pick<Config, 'dataDir' | 'mfaEncryptionKey'>, info: string): Promise<Buffer> {
  const id = `${info}|${config.mfaEncryptionKey ? `env:${config.mfaEncryptionKey}` : `file:${config.dataDir}`}`;
  let key = keys.get(id);
  if (!key) {
    key = (async () => {
      const material = await configuredOrFileKey(config.mfaEncryptionKey, path.join(config.dataDir, MFA_KEY_FILE));
      return Buffer.from(hkdfSync('sha256', Buffer.from(material, 'utf8'), 'strongroom', info, 32));
    })();
    key.catch(() => keys.delete(id));
    keys.set(id, key);
  }
  return key;
}

const mfaKey = (config: Pick<Config, 'dataDir' | 'mfaEncryptionKey'>) => derivedKey(config, 'totp-secret v1');

/**
 * The stored form of a recovery code: HMAC-SHA256 under a key derived from the same MFA key material (another
 * HKDF purpose), over the user's id and the normalized code. The codes carry 50 random bits each, so a keyed hash
 * is enough: a copied database alone cannot test guesses offline, and a code of one user is worthless for another.
 */
export async function recoveryCodeHash(
  config: Pick<Config, 'dataDir' | 'mfaEncryptionKey'>,
  userId: number,
  code: string,
): Promise<string> {
  return createHmac('sha256', await derivedKey(config, 'recovery-code v1'))
    .update(`${userId}:${code}`)
    .digest('hex');
}

export function isEncryptedSecret(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export async function encryptTotpSecret(
  config: Pick<Config, 'dataDir' | 'mfaEncryptionKey'>,
  userId: number,
  secret: string,
): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await mfaKey(config), iv);
  cipher.setAAD(Buffer.from(`user:${userId}`));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The base32 secret of a stored value; a value that does not decrypt is a configuration fault (500). */
export async function decryptTotpSecret(
  config: Pick<Config, 'dataDir' | 'mfaEncryptionKey'>,
  userId: number,
  stored: string,
): Promise<string> {
  if (!isEncryptedSecret(stored)) return stored;
  try {
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', await mfaKey(config), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(`user:${userId}`));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw internalError(MSG.mfaConfigError);
  }
}

const organizationKey = (config: Pick<Config, 'dataDir' | 'mfaEncryptionKey'>) => derivedKey(config, 'organization-secret v1');

/**
 * An organization's secret at rest (a single sign-on client secret): AES-256-GCM under its own HKDF purpose of the
 * same key material, bound to the organization and the secret's use as associated data, so a value copied to
 * another organization's row, or to another column, does not decrypt.
 */
export async function sealOrganizationSecret(
  config: Pick<Config, 'dataDir' | 'mfaEncryptionKey'>,
  binding: string,
  secret: string,
): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await organizationKey(config), iv);
  cipher.setAAD(Buffer.from(binding));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The secret of a sealed value; one that does not decrypt is a configuration fault (500). */
export async function openOrganizationSecret(
  config: Pick<Config, 'dataDir' | 'mfaEncryptionKey'>,
  binding: string,
  stored: string,
): Promise<string> {
  try {
    if (!isEncryptedSecret(stored)) throw new Error('not sealed');
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', await organizationKey(config), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(binding));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw internalError(MSG.mfaConfigError);
  }
}
