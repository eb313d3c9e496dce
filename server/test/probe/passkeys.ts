/**
 * Passkeys for the security suites: a person's passkey stored as registration stores it (its COSE public key from
 * the software authenticator), so that probes can sign in, step up and remove with real WebAuthn answers.
 */
import type { TestApp } from '../helpers.js';
import { SoftAuthenticator } from '../soft-authenticator.js';

export type PersonPasskey = { id: string; authenticator: SoftAuthenticator };

/** A passkey of a person (written as the registration call writes it). */
export async function passkeyOf(t: TestApp, person: { organizationId: string; userId: number }): Promise<PersonPasskey> {
  const authenticator = new SoftAuthenticator();
  const row = await t.ctx.db
    .insertInto('passkeys')
    .values({
      organizationId: person.organizationId,
      userId: person.userId,
      credentialId: authenticator.id,
      publicKey: authenticator.coseKey(),
      signCount: 0,
      transports: ['internal'],
      deviceType: 'multiDevice',
      backedUp: true,
      backupEligible: true,
      name: 'Probe key',
      lastUsedAt: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, authenticator };
}

/** Lets the organization's people sign in with a passkey alone. */
export async function allowPasskeySignIn(t: TestApp, organizationId: string): Promise<void> {
  await t.ctx.db
    .insertInto('passkeySettings')
    .values({ organizationId, allowPasskeySignIn: true, updatedBy: null })
    .onConflict((oc) => oc.column('organizationId').doUpdateSet({ allowPasskeySignIn: true }))
    .execute();
}
