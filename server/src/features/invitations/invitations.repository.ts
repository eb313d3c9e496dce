import type { Executor } from '../../platform/db/database.js';
import type { InvitationsTable } from '../../platform/db/schema.js';
import type { Insertable } from 'kysely';

/** Revokes the open invitations of an address in an organization (a new invitation replaces them). */
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

export async function markInvitationAccepted(db: Executor, id: string): Promise<void> {
  await db.updateTable('invitations').set({ acceptedAt: new Date() }).where('id', '=', id).execute();
}
