import { z } from 'zod';
import { emailSchema, optionalMfaToken, text } from './common.js';

/**
 * Single sign-on with OpenID Connect, one provider per organization: an administrator names the provider's issuer,
 * the client Strongroom was registered as, and the email domains the firm has verified. People of those domains
 * see 'Continue with <provider>' on /login; accounts are linked to the provider's subject, never by email alone.
 */
export const SSO_LIMITS = {
  displayNameMax: 60,
  issuerMax: 500,
  clientIdMax: 300,
  clientSecretMax: 1000,
  domainsMax: 20,
  domainMax: 253,
  /** How long a sign-in started at the provider may take to come back. */
  stateMinutes: 10,
  /** How long /login waits after the last keystroke before asking whether the address signs in with a provider. */
  discoverDebounceMs: 400,
} as const;

/** The callback's failures, sent to /login as ?sso_error=<code>; each has its sentence in SSO_MSG.errors. */
export const SSO_ERROR_CODES = [
  'state_invalid',
  'provider_error',
  'token_invalid',
  'not_linked',
  'account_exists',
  'deactivated',
  'already_linked',
  'not_configured',
  'domain_not_verified',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

export const SSO_MSG = {
  displayNameRequired: 'Give the provider a name, as people know it (for example Okta).',
  displayNameTooLong: `The provider's name cannot exceed ${SSO_LIMITS.displayNameMax} characters.`,
  issuerInvalid: 'The issuer must be the provider’s https address, for example https://firm.okta.com.',
  issuerUnreachable: (why: string) => `Strongroom could not read the provider’s OpenID configuration at that issuer: ${why}`,
  issuerIncomplete: 'The provider’s OpenID configuration lacks what sign-in needs (authorization and token endpoints, keys).',
  clientIdRequired: 'Enter the client ID the provider gave Strongroom.',
  clientIdTooLong: `The client ID cannot exceed ${SSO_LIMITS.clientIdMax} characters.`,
  clientSecretTooLong: `The client secret cannot exceed ${SSO_LIMITS.clientSecretMax} characters.`,
  clientSecretRequired: 'Enter the client secret the provider gave Strongroom.',
  domainsRequired: 'Name at least one email domain the firm has verified.',
  domainInvalid: 'Each domain must be a domain name such as firm.com.',
  domainsTooMany: `At most ${SSO_LIMITS.domainsMax} domains.`,
  domainDuplicate: 'Each domain can be listed once.',
  domainTaken: (domain: string) => `The domain ${domain} is already verified by another organization in Strongroom.`,
  requireNeedsProvider: 'Require single sign-on needs a provider that is set up and switched on.',
  jitRoleInvalid: 'New people can join as a user or a guest.',
  saved: 'Single sign-on settings saved.',
  adminsOnly: 'Only administrators can change single sign-on.',
  notConfigured: 'Single sign-on is not set up for this organization.',
  notConfiguredForEmail: 'This address does not sign in with a provider.',
  passwordSignInOff: (provider: string) => `Your organization signs in with ${provider}. Use “Continue with ${provider}”.`,
  breakGlassRecoveryOnly: 'Your organization signs in with its provider: an administrator’s password sign-in needs a recovery code.',
  unlinked: 'The provider is no longer linked to your account.',
  notLinked: 'No provider is linked to your account.',
  noPendingSignIn: 'No sign-in is waiting for its second step: start again.',
  errors: {
    state_invalid: 'That sign-in link has expired or was already used. Start again.',
    provider_error: 'The provider did not complete the sign-in. Start again, or ask your administrator.',
    token_invalid: 'The provider’s answer could not be verified, so Strongroom refused it. Ask your administrator.',
    not_linked: 'No Strongroom account is linked to that provider account. Ask your administrator for an invitation.',
    account_exists:
      'An account with that address exists but is not linked to the provider: sign in with your password, then link the provider in Settings → Profile.',
    deactivated: 'That account is deactivated.',
    already_linked: 'That provider account is already linked to another Strongroom account.',
    not_configured: 'Single sign-on is not set up for that organization.',
    domain_not_verified: 'The provider’s address for you is not in a domain your organization has verified.',
  } satisfies Record<SsoErrorCode, string>,
} as const;

const domainSchema = text({ error: SSO_MSG.domainInvalid })
  .trim()
  .toLowerCase()
  .max(SSO_LIMITS.domainMax, { error: SSO_MSG.domainInvalid })
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { error: SSO_MSG.domainInvalid });

/** GET /_api/settings/sso (administrators): the provider without its secret, and the redirect URI to register. */
const ssoSettingsSchema = z.object({
  configured: z.boolean(),
  displayName: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  /** Whether a secret is stored; the secret itself is never answered. */
  clientSecretSet: z.boolean(),
  domains: z.array(z.string()),
  enabled: z.boolean(),
  jitEnabled: z.boolean(),
  jitRole: z.enum(['user', 'guest']),
  requireSso: z.boolean(),
  providerMfaCounts: z.boolean(),
  redirectUri: z.string(),
  updatedAt: z.string().nullable(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;
export const ssoSettingsResponse = ssoSettingsSchema;
export type SsoSettingsResponse = z.infer<typeof ssoSettingsResponse>;

/** POST /_api/settings/sso (administrators, a fresh code): the whole setting; an empty secret keeps the stored one. */
export const updateSsoSettingsRequest = z.strictObject({
  displayName: text({ error: SSO_MSG.displayNameRequired })
    .trim()
    .min(1, { error: SSO_MSG.displayNameRequired })
    .max(SSO_LIMITS.displayNameMax, { error: SSO_MSG.displayNameTooLong }),
  issuer: text({ error: SSO_MSG.issuerInvalid }).trim().max(SSO_LIMITS.issuerMax, { error: SSO_MSG.issuerInvalid }),
  clientId: text({ error: SSO_MSG.clientIdRequired })
    .trim()
    .min(1, { error: SSO_MSG.clientIdRequired })
    .max(SSO_LIMITS.clientIdMax, { error: SSO_MSG.clientIdTooLong }),
  clientSecret: text({ error: SSO_MSG.clientSecretRequired })
    .max(SSO_LIMITS.clientSecretMax, { error: SSO_MSG.clientSecretTooLong })
    .optional(),
  domains: z
    .array(domainSchema, { error: SSO_MSG.domainsRequired })
    .min(1, { error: SSO_MSG.domainsRequired })
    .max(SSO_LIMITS.domainsMax, { error: SSO_MSG.domainsTooMany })
    .refine((d) => new Set(d).size === d.length, { error: SSO_MSG.domainDuplicate }),
  enabled: z.boolean(),
  jitEnabled: z.boolean(),
  jitRole: z.enum(['user', 'guest'], { error: SSO_MSG.jitRoleInvalid }),
  requireSso: z.boolean(),
  providerMfaCounts: z.boolean(),
  mfaToken: optionalMfaToken,
});
export type UpdateSsoSettingsRequest = z.infer<typeof updateSsoSettingsRequest>;
export const updateSsoSettingsResponse = z.object({ success: z.literal(true), message: z.string(), settings: ssoSettingsSchema });
export type UpdateSsoSettingsResponse = z.infer<typeof updateSsoSettingsResponse>;

/** POST /_api/auth/sso/discover: answered from the address's domain alone, whether a person has it or not. */
export const ssoDiscoverRequest = z.strictObject({ email: emailSchema });
export type SsoDiscoverRequest = z.infer<typeof ssoDiscoverRequest>;
export const ssoDiscoverResponse = z.object({
  sso: z.object({ providerName: z.string(), startUrl: z.string() }).nullable(),
  requireSso: z.boolean(),
});
export type SsoDiscoverResponse = z.infer<typeof ssoDiscoverResponse>;

/** GET /_api/auth/sso/start?email=… : a redirect to the provider of the address's domain. */
export const ssoStartQuery = z.strictObject({ email: emailSchema });
export type SsoStartQuery = z.infer<typeof ssoStartQuery>;

/** GET /_api/auth/sso/callback: what the provider sends back (checked by the OpenID Connect client). */
export const ssoCallbackQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(500).optional(),
  session_state: z.string().max(500).optional(),
});
export type SsoCallbackQuery = z.infer<typeof ssoCallbackQuery>;

/** GET /_api/auth/sso/pending: the person of the pending sign-in a provider started, for /login's second step. */
export const ssoPendingResponse = z.object({ userId: z.number().int(), email: z.string() });
export type SsoPendingResponse = z.infer<typeof ssoPendingResponse>;

/** GET /_api/settings/sso/identity: the signed-in person's link to the organization's provider. */
export const ssoIdentityResponse = z.object({
  provider: z.object({ providerName: z.string(), linkUrl: z.string() }).nullable(),
  linked: z.object({ linkedAt: z.string() }).nullable(),
});
export type SsoIdentityResponse = z.infer<typeof ssoIdentityResponse>;

/** POST /_api/settings/sso/unlink (a fresh code). */
export const ssoUnlinkRequest = z.strictObject({ mfaToken: optionalMfaToken });
export type SsoUnlinkRequest = z.infer<typeof ssoUnlinkRequest>;
export const ssoUnlinkResponse = z.object({ success: z.literal(true), message: z.string() });
export type SsoUnlinkResponse = z.infer<typeof ssoUnlinkResponse>;
