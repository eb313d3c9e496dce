import type { Executor } from '../../platform/db/database.js';
import type { SessionVia } from '../../platform/db/schema.js';
import { precompiled } from '../../platform/db/precompiled.js';
import type { StepUp } from '../../shared/route-access.js';
import type { OrganizationRow, UserRow } from '../users/index.js';

export type SessionRow = {
  id: string;
  userId: number;
  organizationId: string;
  idleExpiresAt: Date;
  absoluteExpiresAt: Date;
  lastSeenAt: Date;
};

/** A live session with its user and organization: who is asking, for every guarded call. */
export type SessionContext = { session: SessionRow; user: UserRow; org: OrganizationRow };
/** The signed-in caller of a guarded route: the session, and the step-up its route declared. */
export type AuthContext = SessionContext & { stepUp: StepUp };

export function insertSession(
  db: Executor,
  values: {
    tokenHash: string;
    userId: number;
    organizationId: string;
    idleExpiresAt: Date;
    absoluteExpiresAt: Date;
    ipAddress: string;
    userAgent: string | null;
    via: SessionVia;
  },
): Promise<SessionRow> {
  return db
    .insertInto('sessions')
    .values({ ...values, revokedAt: null, revokedReason: null })
    .returning(['id', 'userId', 'organizationId', 'idleExpiresAt', 'absoluteExpiresAt', 'lastSeenAt'])
    .executeTakeFirstOrThrow();
}

export async function revokeUserSessions(db: Executor, userId: number, reason: string, exceptSessionId?: string): Promise<number> {
  let q = db
    .updateTable('sessions')
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function revokeMembersPasswordSessions(db: Executor, organizationId: string, reason: string): Promise<number> {
  const res = await db
    .updateTable('sessions')
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where('organizationId', '=', organizationId)
    .where('via', '=', 'password')
    .where('revokedAt', 'is', null)
    .where('userId', 'in', (q) =>
      q.selectFrom('users').select('users.id').where('users.organizationId', '=', organizationId).where('users.role', '!=', 'admin'),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function revokeSession(db: Executor, sessionId: string, reason: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .execute();
}

/** The lookup behind findLiveSession (the query, not yet run): the session row joined to its user and organization. */
export function liveSessionQuery(db: Executor, tokenHash: string, now: Date) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', (j) => j.onRef('users.id', '=', 'sessions.userId').onRef('users.organizationId', '=', 'sessions.organizationId'))
    .innerJoin('organizations', 'organizations.id', 'users.organizationId')
    .selectAll('users')
    .select([
      'sessions.id as sessionId',
      'sessions.idleExpiresAt',
      'sessions.absoluteExpiresAt',
      'sessions.lastSeenAt',
      'sessions.organizationId as sessionOrganizationId',
      'organizations.name as orgName',
      'organizations.primaryContactName as orgPrimaryContactName',
      'organizations.primaryContactEmail as orgPrimaryContactEmail',
      'organizations.primaryContactPhone as orgPrimaryContactPhone',
      'organizations.mfaRequired as orgMfaRequired',
      'organizations.defaultRetentionYears as orgDefaultRetentionYears',
      'organizations.createdAt as orgCreatedAt',
      'organizations.updatedAt as orgUpdatedAt',
      'organizations.storageQuotaBytes as orgStorageQuotaBytes',
    ])
    .where('sessions.tokenHash', '=', tokenHash)
    .where('sessions.revokedAt', 'is', null)
    .where('sessions.idleExpiresAt', '>', now)
    .where('sessions.absoluteExpiresAt', '>', now)
    .where('users.isActive', '=', true);
}

/** The lookup, compiled once: it runs on every signed-in call. */
const liveSessionLookup = precompiled({ tokenHash: 'string', now: 'date' }, (db, v) => liveSessionQuery(db, v.tokenHash, v.now));

/**
 * The live (not revoked, not expired) session with this token hash, its active user and the organization, in
 * one query: this runs on every authenticated call. A session of a user since moved to another organization is
 * not live.
 */
export async function findLiveSession(db: Executor, tokenHash: string, now: Date): Promise<SessionContext | null> {
  const [row] = await liveSessionLookup(db, { tokenHash, now });
  if (!row) return null;
  const {
    sessionId,
    idleExpiresAt,
    absoluteExpiresAt,
    lastSeenAt,
    sessionOrganizationId,
    orgName,
    orgPrimaryContactName,
    orgPrimaryContactEmail,
    orgPrimaryContactPhone,
    orgMfaRequired,
    orgDefaultRetentionYears,
    orgCreatedAt,
    orgUpdatedAt,
    orgStorageQuotaBytes,
    ...user
  } = row;
  if (sessionOrganizationId !== user.organizationId) return null;
  const org: OrganizationRow = {
    id: user.organizationId,
    name: orgName,
    primaryContactName: orgPrimaryContactName,
    primaryContactEmail: orgPrimaryContactEmail,
    primaryContactPhone: orgPrimaryContactPhone,
    mfaRequired: orgMfaRequired,
    defaultRetentionYears: orgDefaultRetentionYears,
    createdAt: orgCreatedAt,
    updatedAt: orgUpdatedAt,
    storageQuotaBytes: orgStorageQuotaBytes,
  };
  return {
    session: { id: sessionId, userId: user.id, organizationId: user.organizationId, idleExpiresAt, absoluteExpiresAt, lastSeenAt },
    user,
    org,
  };
}

export async function extendSessionIdle(db: Executor, sessionId: string, idleExpiresAt: Date, lastSeenAt: Date): Promise<void> {
  await db.updateTable('sessions').set({ idleExpiresAt, lastSeenAt }).where('id', '=', sessionId).execute();
}
