import type { Executor } from '../../platform/db/database.js';
import type { InvitationsTable } from '../../platform/db/schema.js';
import { sql, type Insertable } from 'kysely';

/**
 * Serializes invitations of one address in one organization for the rest of the transaction, so that two
 * invitations sent at once cannot both find no pending invitation and both be saved.
 */
export async function lockInvitationAddress(db: Executor, organizationId: string, email: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${'invitation:' + organizationId + ':' + email}))`.execute(db);
}

/** The pending (not accepted, not revoked, not expired) invitation of an address, if any. */
export function findPendingInvitationByEmail(db: Executor, organizationId: string, email: string) {
  return db
    .selectFrom('invitations')
    .select(['id', 'expiresAt'])
    .where('organizationId', '=', organizationId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .where('acceptedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .executeTakeFirst();
}

/**
 * The invitations of the organization that were neither accepted nor revoked (expired ones included, so that
 * they can be sent again), newest first, with the inviter's name.
 */
export function listOpenInvitations(db: Executor, organizationId: string) {
  return db
    .selectFrom('invitations')
    .leftJoin('users', (j) =>
      j.onRef('users.id', '=', 'invitations.invitedBy').onRef('users.organizationId', '=', 'invitations.organizationId'),
    )
    .select([
      'invitations.id',
      'invitations.email',
      'invitations.role',
      'invitations.createdAt',
      'invitations.expiresAt',
      'users.fullName as invitedByName',
    ])
    .where('invitations.organizationId', '=', organizationId)
    .where('invitations.acceptedAt', 'is', null)
    .where('invitations.revokedAt', 'is', null)
    .orderBy('invitations.createdAt', 'desc')
    .orderBy('invitations.id')
    .execute();
}

/** An open invitation of the organization by id, locked for the rest of the transaction. */
export function lockInvitationById(db: Executor, organizationId: string, id: string) {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .where('acceptedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** A new link for an invitation: the old token stops working, the new one lasts from now. */
/** An invitation named by its organization and id. */
type InvitationRef = { id: string; organizationId: string };

export function renewInvitation(db: Executor, invitation: InvitationRef, tokenHash: string, expiresAt: Date) {
  return db
    .updateTable('invitations')
    .set({ tokenHash, expiresAt })
    .where('organizationId', '=', invitation.organizationId)
    .where('id', '=', invitation.id)
    .returning(['id', 'email', 'role', 'createdAt', 'expiresAt', 'invitedBy'])
    .executeTakeFirstOrThrow();
}

export async function revokeInvitation(db: Executor, invitation: InvitationRef): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ revokedAt: new Date() })
    .where('organizationId', '=', invitation.organizationId)
    .where('id', '=', invitation.id)
    .execute();
}

/** Revokes the open invitations of an address in an organization (an expired one is replaced by a new invitation). */
export async function revokeOpenInvitations(db: Executor, organizationId: string, email: string): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ revokedAt: new Date() })
    .where('organizationId', '=', organizationId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .where('acceptedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .execute();
}

export function insertInvitation(db: Executor, values: Omit<Insertable<InvitationsTable>, 'acceptedAt' | 'revokedAt'>) {
  return db
    .insertInto('invitations')
    .values({ ...values, acceptedAt: null, revokedAt: null })
    .returning(['id', 'email', 'role', 'expiresAt'])
    .executeTakeFirstOrThrow();
}

/** The open (not accepted, not revoked, not expired) invitation with this token hash, with its organization's name. */
export function findOpenInvitation(db: Executor, tokenHash: string) {
  return db
    .selectFrom('invitations')
    .innerJoin('organizations', 'organizations.id', 'invitations.organizationId')
    .select([
      'invitations.id',
      'invitations.email',
      'invitations.role',
      'invitations.organizationId',
      'organizations.name as organizationName',
    ])
    .where('invitations.tokenHash', '=', tokenHash)
    .where('invitations.acceptedAt', 'is', null)
    .where('invitations.revokedAt', 'is', null)
    .where('invitations.expiresAt', '>', new Date())
    .executeTakeFirst();
}

/** The open invitation with this token hash, locked for the rest of the transaction. */
export function lockOpenInvitation(db: Executor, tokenHash: string) {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('tokenHash', '=', tokenHash)
    .where('acceptedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .forUpdate()
    .executeTakeFirst();
}

export async function markInvitationAccepted(db: Executor, invitation: InvitationRef): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ acceptedAt: new Date() })
    .where('organizationId', '=', invitation.organizationId)
    .where('id', '=', invitation.id)
    .execute();
}
