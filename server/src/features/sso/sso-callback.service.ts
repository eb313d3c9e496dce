import { DEFAULT_PERMISSIONS, type SsoErrorCode } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { isUniqueViolation } from '../../shared/unique-violation.js';
import { openOrganizationSecret } from '../mfa/index.js';
import type { AuthContext } from '../sessions/index.js';
import { findOrganization, findUserByEmail, findUserById, hashPassword, insertUser, type UserRow } from '../users/index.js';
import { discover, exchangeCode, ProviderUnavailable, type VerifiedClaims } from './oidc-client.js';
import { consumeLoginState, findIdentityBySubject, findSso, insertIdentity, organizationOfDomain, type SsoRow } from './sso.repository.js';
import { CALLBACK_PATH, secretBinding } from './sso.service.js';

/** What the provider's answer came to: a person to sign in, a link made, or a refusal with its reason. */
export type SsoOutcome =
  | { kind: 'sign-in'; user: UserRow; providerMfa: boolean; providerName: string; issuer: string }
  | { kind: 'linked'; user: UserRow }
  | { kind: 'refused'; code: SsoErrorCode; intent: 'sign-in' | 'link' };

type CallbackInput = {
  /** The state cookie the browser carries: the callback's state must be this browser's own. */
  stateCookie: string | undefined;
  /** The callback's query string as received. */
  search: string;
  state: string | undefined;
  auth: AuthContext | null;
};

/** The provider counted a second factor: an amr naming one, or an acr the provider uses for multi-factor. */
function providerDidMfa(claims: VerifiedClaims): boolean {
  const strong = ['mfa', 'otp', 'hwk', 'swk', 'sms', 'fido', 'face', 'fpt', 'iris', 'retina', 'vbm', 'sc'];
  if (claims.amr.some((m) => strong.includes(m.toLowerCase()))) return true;
  return !!claims.acr && /mfa|multi|phr|phrh|silver|gold|loa[34]|aal[23]/i.test(claims.acr);
}

async function refuse(
  ctx: AppContext,
  row: { organizationId: string } | null,
  code: SsoErrorCode,
  intent: 'sign-in' | 'link',
  details: Record<string, unknown>,
  meta: RequestMeta,
): Promise<SsoOutcome> {
  await ctx.db
    .transaction()
    .execute((trx) =>
      auditFor(row ? { organizationId: row.organizationId, actor: null } : null, meta)(
        trx,
        'SSO_SIGN_IN_REFUSED',
        { table: 'organization_sso', id: row?.organizationId ?? null },
        { reason: code, intent, ...details },
      ),
    );
  return { kind: 'refused', code, intent };
}

/**
 * GET /_api/auth/sso/callback: spends the state once (a replayed callback is refused), exchanges the code with
 * the provider of the organization that started it and verifies the ID token, then finds the person by the
 * provider's subject within that organization. Not linked: created just in time when the organization allows it
 * and the address is of its verified domains and no account has it; an account with the address is never linked
 * by email alone. A link: the subject goes to the signed-in person who started it.
 */
export async function completeSsoCallback(ctx: AppContext, input: CallbackInput, meta: RequestMeta): Promise<SsoOutcome> {
  if (!input.state) return refuse(ctx, null, 'state_invalid', 'sign-in', { why: 'no state' }, meta);
  // Spent before anything else: a callback URL that leaked is burnt by its first use, whoever makes it.
  const state = await ctx.db.transaction().execute((trx) => consumeLoginState(trx, hashToken(input.state!), new Date()));
  if (!state) return refuse(ctx, null, 'state_invalid', 'sign-in', { why: 'state unknown, spent or expired' }, meta);
  const intent = state.intent;
  if (input.state !== input.stateCookie)
    return refuse(ctx, state, 'state_invalid', intent, { why: 'the state is not this browser’s' }, meta);
  const row = await findSso(ctx.db, state.organizationId);
  if (!row?.enabled) return refuse(ctx, state, 'not_configured', intent, {}, meta);
  if (intent === 'link' && (!input.auth || input.auth.user.id !== state.userId))
    return refuse(ctx, state, 'state_invalid', intent, { why: 'link finished outside the session that started it' }, meta);
  let claims: VerifiedClaims;
  try {
    const secret = await openOrganizationSecret(ctx.config, secretBinding(row.organizationId), row.clientSecret);
    const config = await discover({ issuer: row.issuer, clientId: row.clientId, clientSecret: secret });
    const url = new URL(`${ctx.config.appUrl}${CALLBACK_PATH}${input.search}`);
    claims = await exchangeCode(config, url, { state: input.state, nonce: state.nonce, codeVerifier: state.codeVerifier });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const providerSide = err instanceof ProviderUnavailable || new URLSearchParams(input.search).has('error');
    return refuse(ctx, state, providerSide ? 'provider_error' : 'token_invalid', intent, { why: why.slice(0, 300) }, meta);
  }
  return intent === 'link' ? link(ctx, row, input.auth!, claims, meta) : signIn(ctx, row, claims, meta);
}

async function link(ctx: AppContext, row: SsoRow, auth: AuthContext, claims: VerifiedClaims, meta: RequestMeta): Promise<SsoOutcome> {
  const taken = await findIdentityBySubject(ctx.db, row.organizationId, row.issuer, claims.subject);
  if (taken && taken.userId !== auth.user.id)
    return refuse(ctx, row, 'already_linked', 'link', { subject: claims.subject, userId: auth.user.id }, meta);
  if (!taken) {
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const id = await insertIdentity(trx, {
          organizationId: row.organizationId,
          userId: auth.user.id,
          issuer: row.issuer,
          subject: claims.subject,
        });
        await auditFor(auth.user, meta)(
          trx,
          'SSO_LINKED',
          { table: 'user_identities', id },
          { providerName: row.displayName, issuer: row.issuer, subject: claims.subject },
        );
      });
    } catch (err) {
      if (isUniqueViolation(err))
        return refuse(ctx, row, 'already_linked', 'link', { subject: claims.subject, userId: auth.user.id }, meta);
      throw err;
    }
  }
  return { kind: 'linked', user: auth.user };
}

async function signIn(ctx: AppContext, row: SsoRow, claims: VerifiedClaims, meta: RequestMeta): Promise<SsoOutcome> {
  const providerMfa = row.providerMfaCounts && providerDidMfa(claims);
  const identity = await findIdentityBySubject(ctx.db, row.organizationId, row.issuer, claims.subject);
  if (identity) {
    const user = await findUserById(ctx.db, identity.userId);
    if (!user || user.organizationId !== row.organizationId || !user.isActive)
      return refuse(ctx, row, 'deactivated', 'sign-in', { subject: claims.subject, userId: identity.userId }, meta);
    return { kind: 'sign-in', user, providerMfa, providerName: row.displayName, issuer: row.issuer };
  }
  const email = claims.email;
  const existing = email ? await findUserByEmail(ctx.db, email) : undefined;
  if (existing) return refuse(ctx, row, 'account_exists', 'sign-in', { subject: claims.subject, email }, meta);
  if (!row.jitEnabled) return refuse(ctx, row, 'not_linked', 'sign-in', { subject: claims.subject, email }, meta);
  const domain = email?.split('@').pop() ?? '';
  if (!email || !claims.emailVerified || (await organizationOfDomain(ctx.db, domain)) !== row.organizationId)
    return refuse(
      ctx,
      row,
      'domain_not_verified',
      'sign-in',
      { subject: claims.subject, email, emailVerified: claims.emailVerified },
      meta,
    );
  const org = await findOrganization(ctx.db, row.organizationId);
  if (!org) return refuse(ctx, row, 'not_configured', 'sign-in', {}, meta);
  // The account has no usable password: a random one nobody knows, hashed like any other.
  const passwordHash = await hashPassword(newToken());
  try {
    const user = await ctx.db.transaction().execute(async (trx) => {
      const created = await insertUser(trx, {
        organizationId: row.organizationId,
        email,
        fullName: claims.name ?? email,
        passwordHash,
        role: row.jitRole,
        permissions: DEFAULT_PERMISSIONS[row.jitRole],
      });
      const id = await insertIdentity(trx, {
        organizationId: row.organizationId,
        userId: created.id,
        issuer: row.issuer,
        subject: claims.subject,
      });
      const audit = auditFor(created, meta);
      await audit(trx, 'SSO_USER_CREATED', { table: 'users', id: created.id }, { email, role: row.jitRole, providerName: row.displayName });
      await audit(
        trx,
        'SSO_LINKED',
        { table: 'user_identities', id },
        { providerName: row.displayName, issuer: row.issuer, subject: claims.subject },
      );
      return created;
    });
    return { kind: 'sign-in', user, providerMfa, providerName: row.displayName, issuer: row.issuer };
  } catch (err) {
    // Two first sign-ins at once: the second finds the address or the subject taken.
    if (isUniqueViolation(err)) return refuse(ctx, row, 'account_exists', 'sign-in', { subject: claims.subject, email }, meta);
    throw err;
  }
}
