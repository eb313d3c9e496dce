import type { Executor } from '../../platform/db/database.js';

// The organization's provider and its verified domains.

export type SsoRow = Awaited<ReturnType<typeof findSso>> & object;

export function findSso(db: Executor, organizationId: string) {
  return db.selectFrom('organizationSso').selectAll().where('organizationId', '=', organizationId).executeTakeFirst();
}

export function lockSso(trx: Executor, organizationId: string) {
  return trx.selectFrom('organizationSso').selectAll().where('organizationId', '=', organizationId).forUpdate().executeTakeFirst();
}

export async function listDomains(db: Executor, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('organizationSsoDomains')
    .select('domain')
    .where('organizationId', '=', organizationId)
    .orderBy('domain')
    .execute();
  return rows.map((r) => r.domain);
}

/** The organization that verified a domain, across the installation (a domain belongs to one organization). */
export async function organizationOfDomain(db: Executor, domain: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizationSsoDomains').select('organizationId').where('domain', '=', domain).executeTakeFirst();
  return row?.organizationId;
}

/** The domains of the list that another organization verified already. */
export async function domainsTakenElsewhere(db: Executor, organizationId: string, domains: string[]): Promise<string[]> {
  if (domains.length === 0) return [];
  const rows = await db
    .selectFrom('organizationSsoDomains')
    .select('domain')
    .where('domain', 'in', domains)
    .where('organizationId', '<>', organizationId)
    .orderBy('domain')
    .execute();
  return rows.map((r) => r.domain);
}

export async function saveSso(
  trx: Executor,
  values: {
    organizationId: string;
    displayName: string;
    issuer: string;
    clientId: string;
    clientSecret: string;
    enabled: boolean;
    jitEnabled: boolean;
    jitRole: 'user' | 'guest';
    requireSso: boolean;
    providerMfaCounts: boolean;
    updatedBy: number;
  },
): Promise<void> {
  const { organizationId: _org, ...rest } = values;
  await trx
    .insertInto('organizationSso')
    .values({ ...values, updatedAt: new Date() })
    .onConflict((oc) => oc.column('organizationId').doUpdateSet({ ...rest, updatedAt: new Date() }))
    .execute();
}

/** Replaces the organization's domains; a domain another organization holds fails on the primary key (23505). */
export async function replaceDomains(trx: Executor, organizationId: string, domains: string[]): Promise<void> {
  await trx.deleteFrom('organizationSsoDomains').where('organizationId', '=', organizationId).execute();
  if (domains.length > 0)
    await trx
      .insertInto('organizationSsoDomains')
      .values(domains.map((domain) => ({ domain, organizationId })))
      .execute();
}

// People linked to the provider's subject.

export function findIdentityBySubject(db: Executor, organizationId: string, issuer: string, subject: string) {
  return db
    .selectFrom('userIdentities')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export function findIdentityOfUser(db: Executor, organizationId: string, userId: number) {
  return db
    .selectFrom('userIdentities')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .executeTakeFirst();
}

export async function insertIdentity(
  trx: Executor,
  values: { organizationId: string; userId: number; issuer: string; subject: string },
): Promise<string> {
  const row = await trx.insertInto('userIdentities').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteIdentity(trx: Executor, organizationId: string, id: string): Promise<void> {
  await trx.deleteFrom('userIdentities').where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

// Sign-ins and links started at the provider.

export async function insertLoginState(
  trx: Executor,
  values: {
    stateHash: string;
    organizationId: string;
    nonce: string;
    codeVerifier: string;
    intent: 'sign-in' | 'link';
    userId: number | null;
    expiresAt: Date;
  },
): Promise<void> {
  await trx
    .insertInto('ssoLoginStates')
    .values({ ...values, consumedAt: null })
    .execute();
}

/**
 * Spends a live state once, in one conditional UPDATE: two callbacks with the same state cannot both have it.
 * Answers the state's row, or undefined when it is unknown, spent or expired.
 */
export function consumeLoginState(trx: Executor, stateHash: string, now: Date) {
  return trx
    .updateTable('ssoLoginStates')
    .set({ consumedAt: now })
    .where('stateHash', '=', stateHash)
    .where('consumedAt', 'is', null)
    .where('expiresAt', '>', now)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Removes sign-ins and links started at the provider that can no longer be finished (past their time, spent or
 * not), in batches so that a large backlog never holds one long lock. Answers how many went.
 */
export async function deleteDeadLoginStates(db: Executor, before: Date, limit: number): Promise<number> {
  const rows = await db
    .deleteFrom('ssoLoginStates')
    .where('stateHash', 'in', (q) => q.selectFrom('ssoLoginStates').select('stateHash').where('expiresAt', '<', before).limit(limit))
    .returning('stateHash')
    .execute();
  return rows.length;
}
