import type { Executor } from '../../platform/db/database.js';

// Passkeys, their ceremonies' challenges and the organization's passkey sign-in setting.

export type ChallengePurpose = 'register' | 'second-factor' | 'sign-in' | 'step-up';

export async function insertChallenge(
  db: Executor,
  values: {
    organizationId: string | null;
    userId: number | null;
    sessionId: string | null;
    purpose: ChallengePurpose;
    operation: string | null;
    challenge: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('webauthnChallenges')
    .values({ ...values, consumedAt: null })
    .execute();
}

/** The live (not consumed, not expired) challenge of a purpose, locked for the rest of the transaction. */
export function lockLiveChallenge(db: Executor, challenge: string, purpose: ChallengePurpose) {
  return db
    .selectFrom('webauthnChallenges')
    .select(['id', 'organizationId', 'userId', 'sessionId', 'operation', 'challenge'])
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('consumedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .forUpdate()
    .executeTakeFirst();
}

export async function consumeChallenge(db: Executor, id: string): Promise<void> {
  await db.updateTable('webauthnChallenges').set({ consumedAt: new Date() }).where('id', '=', id).execute();
}

const passkeyColumns = [
  'id',
  'organizationId',
  'userId',
  'credentialId',
  'publicKey',
  'signCount',
  'transports',
  'deviceType',
  'backedUp',
  'backupEligible',
  'name',
  'createdAt',
  'lastUsedAt',
] as const;

export function listUserPasskeys(db: Executor, organizationId: string, userId: number) {
  return db
    .selectFrom('passkeys')
    .select(passkeyColumns)
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .orderBy('createdAt', 'asc')
    .orderBy('id', 'asc')
    .execute();
}
export type PasskeyRow = Awaited<ReturnType<typeof listUserPasskeys>>[number];

export async function countUserPasskeys(db: Executor, organizationId: string, userId: number): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A person's own passkey, locked for the rest of the transaction. */
export function lockUserPasskey(db: Executor, organizationId: string, userId: number, id: string) {
  return db
    .selectFrom('passkeys')
    .select(passkeyColumns)
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The passkey a browser's credential id names, locked. A passwordless sign-in names no organization before the
 * credential is found: the credential id is unique across the installation, and the row names its organization.
 */
export function lockPasskeyByCredentialId(db: Executor, credentialId: string) {
  return db.selectFrom('passkeys').select(passkeyColumns).where('credentialId', '=', credentialId).forUpdate().executeTakeFirst();
}

export async function credentialIdTaken(db: Executor, credentialId: string): Promise<boolean> {
  const row = await db.selectFrom('passkeys').select('id').where('credentialId', '=', credentialId).executeTakeFirst();
  return row !== undefined;
}

export async function insertPasskey(
  db: Executor,
  values: {
    organizationId: string;
    userId: number;
    credentialId: string;
    publicKey: Uint8Array;
    signCount: number;
    transports: string[];
    deviceType: string;
    backedUp: boolean;
    backupEligible: boolean;
    name: string;
  },
): Promise<string> {
  const row = await db
    .insertInto('passkeys')
    .values({ ...values, lastUsedAt: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function renamePasskeyRow(db: Executor, organizationId: string, id: string, name: string): Promise<void> {
  await db.updateTable('passkeys').set({ name }).where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

export async function deletePasskeyRow(db: Executor, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('passkeys').where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

/** Every passkey of a person (their second factor reset by an administrator); answers how many went. */
export async function removeUserPasskeys(db: Executor, organizationId: string, userId: number): Promise<number> {
  const rows = await db
    .deleteFrom('passkeys')
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .returning('id')
    .execute();
  return rows.length;
}

/** A verified use: the new counter, the backup flags as the authenticator reported them, and when. */
export async function recordPasskeyUse(
  db: Executor,
  organizationId: string,
  id: string,
  use: { signCount: number; deviceType: string; backedUp: boolean },
): Promise<void> {
  await db
    .updateTable('passkeys')
    .set({ ...use, lastUsedAt: new Date() })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

export async function passkeySignInAllowed(db: Executor, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('passkeySettings')
    .select('allowPasskeySignIn')
    .where('organizationId', '=', organizationId)
    .executeTakeFirst();
  return row?.allowPasskeySignIn ?? false;
}

export async function setPasskeySignIn(db: Executor, organizationId: string, allow: boolean, by: number): Promise<void> {
  await db
    .insertInto('passkeySettings')
    .values({ organizationId, allowPasskeySignIn: allow, updatedBy: by })
    .onConflict((oc) => oc.column('organizationId').doUpdateSet({ allowPasskeySignIn: allow, updatedBy: by, updatedAt: new Date() }))
    .execute();
}

/** Removes ceremonies' challenges past their time (used or not), in batches. Answers how many went. */
export async function deleteDeadChallenges(db: Executor, before: Date, limit: number): Promise<number> {
  const rows = await db
    .deleteFrom('webauthnChallenges')
    .where('id', 'in', (q) => q.selectFrom('webauthnChallenges').select('id').where('expiresAt', '<', before).limit(limit))
    .returning('id')
    .execute();
  return rows.length;
}
