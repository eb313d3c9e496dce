import {
  SSO_LIMITS,
  SSO_MSG,
  type SsoDiscoverResponse,
  type SsoIdentityResponse,
  type SsoSettings,
  type SsoUnlinkResponse,
  type UpdateSsoSettingsRequest,
  type UpdateSsoSettingsResponse,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, conflict, notFound } from '../../shared/errors.js';
import { hashToken } from '../../shared/tokens.js';
import { isUniqueViolation } from '../../shared/unique-violation.js';
import { openOrganizationSecret, sealOrganizationSecret } from '../mfa/index.js';
import { revokeMembersPasswordSessions, type AuthContext } from '../sessions/index.js';
import { authorizationUrl, discover, issuerAllowed, newChecks, ProviderUnavailable } from './oidc-client.js';
import {
  deleteIdentity,
  domainsTakenElsewhere,
  findIdentityOfUser,
  findSso,
  insertLoginState,
  listDomains,
  lockSso,
  organizationOfDomain,
  replaceDomains,
  saveSso,
  type SsoRow,
} from './sso.repository.js';

export const CALLBACK_PATH = '/_api/auth/sso/callback';
const redirectUriOf = (ctx: AppContext) => `${ctx.config.appUrl}${CALLBACK_PATH}`;
/** The client secret is bound to its organization and its use. */
const secretBinding = (organizationId: string) => `sso-client-secret:${organizationId}`;

function toSettings(ctx: AppContext, row: SsoRow | undefined, domains: string[]): SsoSettings {
  return {
    configured: !!row,
    displayName: row?.displayName ?? '',
    issuer: row?.issuer ?? '',
    clientId: row?.clientId ?? '',
    clientSecretSet: !!row?.clientSecret,
    domains,
    enabled: row?.enabled ?? false,
    jitEnabled: row?.jitEnabled ?? false,
    jitRole: row?.jitRole ?? 'user',
    requireSso: row?.requireSso ?? false,
    providerMfaCounts: row?.providerMfaCounts ?? false,
    redirectUri: redirectUriOf(ctx),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** GET /_api/settings/sso (administrators): the provider without its secret. */
export async function getSsoSettings(ctx: AppContext, auth: AuthContext): Promise<SsoSettings> {
  const orgId = auth.user.organizationId;
  return toSettings(ctx, await findSso(ctx.db, orgId), await listDomains(ctx.db, orgId));
}

/** Reads the issuer's OpenID configuration: an issuer that cannot serve sign-in is refused before it is saved. */
async function checkIssuer(ctx: AppContext, issuer: string, clientId: string, clientSecret: string): Promise<void> {
  if (!issuerAllowed(issuer, ctx.config.ssoAllowHttpLoopback)) throw badRequest(SSO_MSG.issuerInvalid, { field: 'issuer' });
  try {
    await discover({ issuer, clientId, clientSecret });
  } catch (err) {
    if (err instanceof ProviderUnavailable)
      throw badRequest(err.incomplete ? SSO_MSG.issuerIncomplete : SSO_MSG.issuerUnreachable(err.message), { field: 'issuer' });
    throw err;
  }
}

/**
 * POST /_api/settings/sso (administrators, a fresh code): the provider, checked by discovery before it is saved,
 * and the verified domains, none of which another organization holds (409). Require SSO needs a provider that is
 * switched on. One transaction with SSO_SETTINGS_UPDATED.
 */
export async function updateSsoSettings(
  ctx: AppContext,
  auth: AuthContext,
  input: UpdateSsoSettingsRequest,
  meta: RequestMeta,
): Promise<UpdateSsoSettingsResponse> {
  const { user } = auth;
  const orgId = user.organizationId;
  const issuer = input.issuer.replace(/\/$/, '');
  if (!issuerAllowed(issuer, ctx.config.ssoAllowHttpLoopback)) throw badRequest(SSO_MSG.issuerInvalid, { field: 'issuer' });
  if (input.requireSso && !input.enabled) throw badRequest(SSO_MSG.requireNeedsProvider, { field: 'requireSso' });
  const before = await findSso(ctx.db, orgId);
  const newSecret = input.clientSecret?.trim() ? input.clientSecret.trim() : undefined;
  if (!newSecret && !before) throw badRequest(SSO_MSG.clientSecretRequired, { field: 'clientSecret' });
  const taken = await domainsTakenElsewhere(ctx.db, orgId, input.domains);
  if (taken.length > 0) throw conflict(SSO_MSG.domainTaken(taken[0]!), { field: 'domains' });
  const secret = newSecret ?? (await openOrganizationSecret(ctx.config, secretBinding(orgId), before!.clientSecret));
  await checkIssuer(ctx, issuer, input.clientId, secret);
  const sealed = newSecret ? await sealOrganizationSecret(ctx.config, secretBinding(orgId), newSecret) : before!.clientSecret;
  try {
    await auth.stepUp.run(async (trx) => {
      const locked = await lockSso(trx, orgId);
      const oldDomains = await listDomains(trx, orgId);
      await saveSso(trx, {
        organizationId: orgId,
        displayName: input.displayName,
        issuer,
        clientId: input.clientId,
        clientSecret: sealed,
        enabled: input.enabled,
        jitEnabled: input.jitEnabled,
        jitRole: input.jitRole,
        requireSso: input.requireSso,
        providerMfaCounts: input.providerMfaCounts,
        updatedBy: user.id,
      });
      await replaceDomains(trx, orgId, input.domains);
      // Switching Require SSO on sends members signed in with their password back through the provider.
      const sessionsEnded = input.requireSso && !locked?.requireSso ? await revokeMembersPasswordSessions(trx, orgId, 'sso-required') : 0;
      await auditFor(user, meta)(
        trx,
        'SSO_SETTINGS_UPDATED',
        { table: 'organization_sso', id: orgId },
        {
          providerName: input.displayName,
          issuer,
          clientId: input.clientId,
          clientSecretChanged: !!newSecret,
          domains: input.domains,
          previousDomains: oldDomains,
          enabled: input.enabled,
          jitEnabled: input.jitEnabled,
          jitRole: input.jitRole,
          requireSso: input.requireSso,
          providerMfaCounts: input.providerMfaCounts,
          sessionsEnded,
          created: !locked,
        },
      );
    });
  } catch (err) {
    // Another organization verified one of the domains meanwhile: the primary key decides.
    if (isUniqueViolation(err)) throw conflict(SSO_MSG.domainTaken(input.domains.join(', ')), { field: 'domains' });
    throw err;
  }
  return { success: true, message: SSO_MSG.saved, settings: await getSsoSettings(ctx, auth) };
}

const domainOf = (email: string) => email.trim().toLowerCase().split('@').pop() ?? '';

/** The organization whose enabled provider serves an address's domain, if any. */
async function providerForEmail(ctx: AppContext, email: string) {
  const orgId = await organizationOfDomain(ctx.db, domainOf(email));
  if (!orgId) return undefined;
  const row = await findSso(ctx.db, orgId);
  return row?.enabled ? row : undefined;
}

/** POST /_api/auth/sso/discover: from the domain alone, so it tells nothing of who has an account. */
export async function discoverSso(ctx: AppContext, email: string): Promise<SsoDiscoverResponse> {
  const row = await providerForEmail(ctx, email);
  if (!row) return { sso: null, requireSso: false };
  return {
    sso: { providerName: row.displayName, startUrl: `/_api/auth/sso/start?email=${encodeURIComponent(email.trim())}` },
    requireSso: row.requireSso,
  };
}

/** The state a browser carries back from the provider (a cookie), its lifetime and the redirect to the provider. */
export type SsoStart = { state: string; location: string };

async function beginAtProvider(
  ctx: AppContext,
  row: SsoRow,
  intent: 'sign-in' | 'link',
  userId: number | null,
  loginHint?: string,
): Promise<SsoStart> {
  const secret = await openOrganizationSecret(ctx.config, secretBinding(row.organizationId), row.clientSecret);
  let config;
  try {
    config = await discover({ issuer: row.issuer, clientId: row.clientId, clientSecret: secret });
  } catch (err) {
    if (err instanceof ProviderUnavailable) throw badRequest(SSO_MSG.errors.provider_error);
    throw err;
  }
  const checks = newChecks();
  await ctx.db.transaction().execute((trx) =>
    insertLoginState(trx, {
      stateHash: hashToken(checks.state),
      organizationId: row.organizationId,
      nonce: checks.nonce,
      codeVerifier: checks.codeVerifier,
      intent,
      userId,
      expiresAt: new Date(Date.now() + SSO_LIMITS.stateMinutes * 60_000),
    }),
  );
  return { state: checks.state, location: await authorizationUrl(config, checks, redirectUriOf(ctx), loginHint) };
}

/** GET /_api/auth/sso/start: a sign-in at the provider of the address's domain (400 when none serves it). */
export async function startSsoSignIn(ctx: AppContext, email: string): Promise<SsoStart> {
  const row = await providerForEmail(ctx, email);
  if (!row) throw badRequest(SSO_MSG.notConfiguredForEmail, { field: 'email' });
  return beginAtProvider(ctx, row, 'sign-in', null, email.trim());
}

/** GET /_api/auth/sso/link: the signed-in person links the organization's provider to their account. */
export async function startSsoLink(ctx: AppContext, auth: AuthContext): Promise<SsoStart> {
  const row = await findSso(ctx.db, auth.user.organizationId);
  if (!row?.enabled) throw notFound(SSO_MSG.notConfigured);
  return beginAtProvider(ctx, row, 'link', auth.user.id, auth.user.email);
}

/** GET /_api/settings/sso/identity: the organization's provider and whether the person is linked to it. */
export async function getSsoIdentity(ctx: AppContext, auth: AuthContext): Promise<SsoIdentityResponse> {
  const { user } = auth;
  const row = await findSso(ctx.db, user.organizationId);
  const identity = await findIdentityOfUser(ctx.db, user.organizationId, user.id);
  return {
    provider: row?.enabled ? { providerName: row.displayName, linkUrl: '/_api/auth/sso/link' } : null,
    linked: identity ? { linkedAt: identity.createdAt.toISOString() } : null,
  };
}

/** POST /_api/settings/sso/unlink (a fresh code): SSO_UNLINKED in the transaction that removes the link. */
export async function unlinkSso(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<SsoUnlinkResponse> {
  const { user } = auth;
  const identity = await findIdentityOfUser(ctx.db, user.organizationId, user.id);
  if (!identity) throw notFound(SSO_MSG.notLinked);
  await auth.stepUp.run(async (trx) => {
    await deleteIdentity(trx, user.organizationId, identity.id);
    await auditFor(user, meta)(trx, 'SSO_UNLINKED', { table: 'user_identities', id: identity.id }, { issuer: identity.issuer });
  });
  return { success: true, message: SSO_MSG.unlinked };
}

/** What the password step needs to know of an organization's single sign-on: whether it is required, and by whom. */
export async function ssoPolicy(ctx: AppContext, organizationId: string): Promise<{ requireSso: boolean; providerName: string } | null> {
  const row = await findSso(ctx.db, organizationId);
  if (!row?.enabled) return null;
  return { requireSso: row.requireSso, providerName: row.displayName };
}

export { secretBinding };
