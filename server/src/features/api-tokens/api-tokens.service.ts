import {
  API_TOKEN_LIMITS,
  API_TOKEN_MSG,
  API_TOKEN_PREFIX,
  API_TOKEN_SCOPES,
  type ApiToken,
  type ApiTokenScope,
  type ApiTokensResponse,
  type CreateApiTokenRequest,
  type CreateApiTokenResponse,
  type RevokeApiTokenRequest,
  type RevokeApiTokenResponse,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, conflict, forbidden, notFound, unauthenticated } from '../../shared/errors.js';
import { consume, type ThrottleRule } from '../../shared/throttle.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { findOrganization, findUserById, lockUser, mfaSetupRequired } from '../users/index.js';
import type { AuthContext, SessionContext } from '../sessions/index.js';
import {
  countLiveTokens,
  findApiToken,
  insertApiToken,
  listApiTokens,
  liveTokenByHash,
  lockApiToken,
  markTokenUsed,
  revokeApiTokenRow,
  type ApiTokenRow,
} from './api-tokens.repository.js';

const DAY_MS = 86_400_000;

function toDto(r: ApiTokenRow): ApiToken {
  return {
    tokenId: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes.filter((s): s is ApiTokenScope => (API_TOKEN_SCOPES as readonly string[]).includes(s)),
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
    owner: { userId: r.userId, name: r.ownerName, email: r.ownerEmail },
  };
}

/** GET /_api/settings/api-tokens: one's own tokens; an administrator sees every token of the organization. */
export async function listTokens(ctx: AppContext, auth: AuthContext): Promise<ApiTokensResponse> {
  const { user } = auth;
  const rows = await listApiTokens(ctx.db, user.organizationId, user.role === 'admin' ? undefined : user.id);
  return { tokens: rows.map(toDto) };
}

/**
 * POST /_api/settings/api-tokens: a new token for the signed-in person, behind a fresh code. Its text is
 * answered this once; only its hash is kept. At most a year, at most API_TOKEN_LIMITS.perUserMax live tokens a
 * person (counted under the person's row lock, so a burst of creations cannot pass it).
 */
export async function createToken(
  ctx: AppContext,
  auth: AuthContext,
  input: CreateApiTokenRequest,
  meta: RequestMeta,
): Promise<CreateApiTokenResponse> {
  const { user } = auth;
  const now = new Date();
  const expiresAt = new Date(input.expiresAt);
  if (expiresAt.getTime() <= now.getTime()) throw badRequest(API_TOKEN_MSG.expiresInPast, { field: 'expiresAt' });
  if (expiresAt.getTime() > now.getTime() + API_TOKEN_LIMITS.maxDays * DAY_MS)
    throw badRequest(API_TOKEN_MSG.expiresTooLate, { field: 'expiresAt' });
  const token = `${API_TOKEN_PREFIX}${newToken()}`;
  const id = await auth.stepUp.run(async (trx) => {
    await lockUser(trx, user.id);
    if ((await countLiveTokens(trx, user.organizationId, user.id, now)) >= API_TOKEN_LIMITS.perUserMax)
      throw conflict(API_TOKEN_MSG.tooMany);
    const row = await insertApiToken(trx, {
      organizationId: user.organizationId,
      userId: user.id,
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
      scopes: input.scopes,
      expiresAt,
    });
    await auditFor(user, meta)(
      trx,
      'API_TOKEN_CREATED',
      { table: 'api_tokens', id: row.id },
      { tokenId: row.id, name: input.name, scopes: input.scopes, expiresAt: expiresAt.toISOString() },
    );
    return row.id;
  });
  const row = await findApiToken(ctx.db, user.organizationId, id);
  if (!row) throw notFound(API_TOKEN_MSG.notFound);
  return { success: true, message: API_TOKEN_MSG.created, token, apiToken: toDto(row) };
}

/** POST /_api/settings/api-tokens/revoke: one's own token, or any of the organization's for an administrator. */
export async function revokeToken(
  ctx: AppContext,
  auth: AuthContext,
  input: RevokeApiTokenRequest,
  meta: RequestMeta,
): Promise<RevokeApiTokenResponse> {
  const { user } = auth;
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockApiToken(trx, user.organizationId, input.tokenId);
    if (!row || (user.role !== 'admin' && row.userId !== user.id)) throw notFound(API_TOKEN_MSG.notFound);
    if (row.revokedAt) throw conflict(API_TOKEN_MSG.alreadyRevoked);
    await revokeApiTokenRow(trx, user.organizationId, row.id, user.id, new Date());
    const owner = row.userId === user.id ? user : await findUserById(trx, row.userId);
    await auditFor(user, meta)(
      trx,
      'API_TOKEN_REVOKED',
      { table: 'api_tokens', id: row.id },
      { tokenId: row.id, name: row.name, ownerId: row.userId, ownerName: owner?.fullName ?? null },
    );
  });
  const row = await findApiToken(ctx.db, user.organizationId, input.tokenId);
  if (!row) throw notFound(API_TOKEN_MSG.notFound);
  return { success: true, message: API_TOKEN_MSG.revoked, apiToken: toDto(row) };
}

const TOKEN_RATE: Omit<ThrottleRule, 'message'> = {
  name: 'api-token',
  limit: API_TOKEN_LIMITS.callsPerMinute,
  windowSeconds: 60,
  lockSeconds: 60,
};

/** The person a caller is while using an API token: their row, marked with the token, which their audit entries name. */
type TokenUser = SessionContext['user'] & { apiTokenId: string };

/**
 * The caller of a bearer token, for a route of `scope` (undefined: a route no token reaches). A token that is not
 * live answers 401; a route outside its scopes 403; past its rate, 429. The answer is shaped as a session's, with
 * no session behind it: the token's id stands in its place.
 */
export async function tokenSession(ctx: AppContext, bearer: string, scope: ApiTokenScope | undefined): Promise<SessionContext> {
  const now = new Date();
  const row = bearer.startsWith(API_TOKEN_PREFIX) ? await liveTokenByHash(ctx.db, hashToken(bearer), now) : undefined;
  if (!row) throw unauthenticated(API_TOKEN_MSG.invalidToken, 'UNAUTHENTICATED');
  const user = await findUserById(ctx.db, row.userId);
  const org = user ? await findOrganization(ctx.db, user.organizationId) : undefined;
  if (!user?.isActive || !org || user.organizationId !== row.organizationId)
    throw unauthenticated(API_TOKEN_MSG.invalidToken, 'UNAUTHENTICATED');
  if (scope === undefined) throw forbidden(API_TOKEN_MSG.notForTokens);
  if (!row.scopes.includes(scope)) throw forbidden(API_TOKEN_MSG.missingScope(scope));
  if (mfaSetupRequired(user, org)) throw forbidden(API_TOKEN_MSG.invalidToken);
  await consume(ctx.db, `api-token:${row.id}`, { ...TOKEN_RATE, message: API_TOKEN_MSG.rateLimited(60) });
  await markTokenUsed(ctx.db, row.organizationId, row.id, now);
  const tokenUser: TokenUser = { ...user, apiTokenId: row.id };
  return {
    session: {
      id: `api-token:${row.id}`,
      userId: user.id,
      organizationId: user.organizationId,
      idleExpiresAt: row.expiresAt,
      absoluteExpiresAt: row.expiresAt,
      lastSeenAt: now,
    },
    user: tokenUser,
    org,
  };
}
