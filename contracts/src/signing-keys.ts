import { z } from 'zod';

/** Where an installation publishes the public keys its certificates and audit chain heads are signed with. */
export const SIGNING_KEYS_PATH = '/.well-known/strongroom-signing-keys';

/**
 * One published signing key. `keyId` and `fingerprint` are the same value: the hex sha256 of the key's SPKI DER
 * encoding (the `keyId` a signed certificate carries). `notBefore`/`notAfter` bound the time the key signed for
 * (ISO dates); `notAfter` is null while the key is the one in use.
 */
export const publishedSigningKeySchema = z.object({
  keyId: z.string().regex(/^[0-9a-f]{64}$/),
  algorithm: z.literal('Ed25519'),
  publicKeyPem: z.string(),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  notBefore: z.string(),
  notAfter: z.string().nullable(),
});
export type PublishedSigningKey = z.infer<typeof publishedSigningKeySchema>;

/** GET /.well-known/strongroom-signing-keys (no sign-in): every key the installation has signed with, oldest first. */
export const signingKeysResponse = z.object({ keys: z.array(publishedSigningKeySchema) });
export type SigningKeysResponse = z.infer<typeof signingKeysResponse>;

/** The texts of the signing key panel (Settings → Retention & Vault). */
export const SIGNING_KEYS_MSG = {
  fingerprintCopied: 'Fingerprint copied.',
  noKeyYet: 'No signing key has been published yet: it is published when the server starts.',
  printInLetters:
    'Print this fingerprint in your engagement letters and hand it to your auditors: with it, anyone can check a certificate offline with npm run verify-certificate -- <certificate> --fingerprint <fingerprint>.',
} as const;
