import type { Executor } from '../../platform/db/database.js';

/** A token with its owner's name and address, as the settings list shows it. */
function tokensWithOwner(db: Executor) {
  return db
    .selectFrom('apiTokens as k')
    .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'k.userId').onRef('u.organizationId', '=', 'k.organizationId'))
    .select([
      'k.id',
      'k.organizationId',
      'k.userId',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.createdAt',
      'k.expiresAt',
      'k.lastUsedAt',
      'k.revokedAt',
      'u.fullName as ownerName',
      'u.email as ownerEmail',
    ]);
}
export type ApiTokenRow = Awaited<ReturnType<typeof findApiToken>> & object;

export function findApiToken(db: Executor, organizationId: string, id: string) {
  return tokensWithOwner(db).where('k.organizationId', '=', organizationId).where('k.id', '=', id).executeTakeFirst();
}

/** The organization's tokens, or one person's, newest first. */
export function listApiTokens(db: Executor, organizationId: string, userId?: number) {
  let q = tokensWithOwner(db).where('k.organizationId', '=', organizationId);
  if (userId !== undefined) q = q.where('k.userId', '=', userId);
  return q.orderBy('k.createdAt', 'desc').orderBy('k.id', 'desc').execute();
}

/** Live tokens a person holds (counted under their row's lock against the limit). */
export async function countLiveTokens(db: Executor, organizationId: string, userId: number, now: Date): Promise<number> {
  const row = await db
    .selectFrom('apiTokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertApiToken(
  trx: Executor,
  values: { organizationId: string; userId: number; name: string; tokenHash: string; prefix: string; scopes: string[]; expiresAt: Date },
) {
  return trx
    .insertInto('apiTokens')
    .values({ ...values, scopes: JSON.stringify(values.scopes) })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function lockApiToken(trx: Executor, organizationId: string, id: string) {
  return trx
    .selectFrom('apiTokens')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function revokeApiTokenRow(trx: Executor, organizationId: string, id: string, by: number, at: Date): Promise<void> {
  await trx
    .updateTable('apiTokens')
    .set({ revokedAt: at, revokedBy: by })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

/** A live token by its hash, with its person and organization: looked up before the organization is known. */
export function liveTokenByHash(db: Executor, tokenHash: string, now: Date) {
  return db
    .selectFrom('apiTokens')
    .selectAll()
    .where('tokenHash', '=', tokenHash)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
}

/** Records a use, at most once a minute per token (the list's "last used"). */
export async function markTokenUsed(db: Executor, organizationId: string, id: string, now: Date): Promise<void> {
  await db
    .updateTable('apiTokens')
    .set({ lastUsedAt: now })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', new Date(now.getTime() - 60_000))]))
    .execute();
}
