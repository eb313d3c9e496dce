import { z } from 'zod';
import { optionalMfaToken, text } from './common.js';

/**
 * Personal API tokens for a firm's own tools (scanners, e-discovery exports, case management systems): a person
 * creates one in Settings with scopes, a name and an expiry; it is shown once, kept only as a hash, and sent as
 * `Authorization: Bearer <token>`. A token reaches only the calls its scopes name, only in its owner's
 * organization, and never an action that needs a second-factor code.
 */
export const API_TOKEN_SCOPES = ['matters:read', 'files:read', 'files:upload', 'audit:read'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, { label: string; description: string }> = {
  'matters:read': { label: 'Read matters', description: 'List and search matters and read their folders.' },
  'files:read': { label: 'Read files', description: 'Download and preview files and read their versions.' },
  'files:upload': { label: 'Upload files', description: 'Create folders and upload files and new versions.' },
  'audit:read': { label: 'Read audit logs', description: "Read the organization's audit log (as the person may)." },
};

export const API_TOKEN_LIMITS = {
  nameMax: 100,
  /** Longest a token may live. */
  maxDays: 366,
  /** Tokens a person may hold at once (live ones). */
  perUserMax: 25,
  /** Calls one token may make per minute. */
  callsPerMinute: 300,
} as const;

/** A token's text starts with this, so that a leaked one is recognised by secret scanners. */
export const API_TOKEN_PREFIX = 'srt_';

export const API_TOKEN_MSG = {
  nameRequired: 'Give the token a name.',
  nameTooLong: `Token name cannot exceed ${API_TOKEN_LIMITS.nameMax} characters.`,
  scopesRequired: 'Choose at least one scope.',
  invalidScope: `Scopes must be among: ${API_TOKEN_SCOPES.join(', ')}.`,
  duplicateScope: 'Each scope can be listed once.',
  expiresAtInvalid: 'expiresAt must be a date and time with its offset, for example 2027-01-31T00:00:00Z.',
  expiresInPast: 'The expiry must be in the future.',
  expiresTooLate: 'A token can live at most one year.',
  tooMany: `You can hold at most ${API_TOKEN_LIMITS.perUserMax} live tokens: revoke one first.`,
  created: 'Token created. Copy it now: it is not shown again.',
  revoked: 'Token revoked.',
  alreadyRevoked: 'The token was already revoked.',
  notFound: 'API token not found.',
  invalidTokenId: 'Invalid token ID format.',
  tokenIdRequired: 'tokenId is required.',
  /** A bearer token that is not live (unknown, revoked, expired, its person deactivated): 401. */
  invalidToken: 'The API token is not valid: it may have been revoked or have expired.',
  /** A call that no token scope covers (settings, team, security): 403. */
  notForTokens: 'This call cannot be made with an API token; sign in to Strongroom instead.',
  /** A call of a scope the token was not given: 403. */
  missingScope: (scope: ApiTokenScope) => `This API token does not have the scope ${scope}.`,
  /** A call that needs a fresh second-factor code: tokens never pass one (403). */
  stepUpRefused: 'This action needs a fresh second-factor code and cannot be done with an API token.',
  rateLimited: (seconds: number) => `Too many calls with this API token: wait ${seconds} seconds.`,
  tokenAndSession: 'Send either an API token or a session cookie, not both.',
} as const;

export const apiTokenSchema = z.object({
  tokenId: z.string(),
  name: z.string(),
  /** The token's first characters, to tell tokens apart (never enough to use one). */
  prefix: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  owner: z.object({ userId: z.number().int(), name: z.string(), email: z.string() }),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** POST /_api/settings/api-tokens */
export const createApiTokenRequest = z.strictObject({
  name: text({ error: API_TOKEN_MSG.nameRequired })
    .trim()
    .min(1, { error: API_TOKEN_MSG.nameRequired })
    .max(API_TOKEN_LIMITS.nameMax, { error: API_TOKEN_MSG.nameTooLong }),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES, { error: API_TOKEN_MSG.invalidScope }), { error: API_TOKEN_MSG.scopesRequired })
    .min(1, { error: API_TOKEN_MSG.scopesRequired })
    .refine((s) => new Set(s).size === s.length, { error: API_TOKEN_MSG.duplicateScope }),
  expiresAt: z.iso.datetime({ offset: true, error: API_TOKEN_MSG.expiresAtInvalid }),
  mfaToken: optionalMfaToken,
});
export type CreateApiTokenRequest = z.infer<typeof createApiTokenRequest>;
export const createApiTokenResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The token itself: shown this once, never again. */
  token: z.string(),
  apiToken: apiTokenSchema,
});
export type CreateApiTokenResponse = z.infer<typeof createApiTokenResponse>;

/** GET /_api/settings/api-tokens: one's own tokens; an administrator's answer holds every token of the organization. */
export const apiTokensResponse = z.object({ tokens: z.array(apiTokenSchema) });
export type ApiTokensResponse = z.infer<typeof apiTokensResponse>;

/** POST /_api/settings/api-tokens/revoke */
export const revokeApiTokenRequest = z.strictObject({
  tokenId: z.uuid({
    error: (iss) => (iss.input === undefined || iss.input === '' ? API_TOKEN_MSG.tokenIdRequired : API_TOKEN_MSG.invalidTokenId),
  }),
});
export type RevokeApiTokenRequest = z.infer<typeof revokeApiTokenRequest>;
export const revokeApiTokenResponse = z.object({ success: z.literal(true), message: z.string(), apiToken: apiTokenSchema });
export type RevokeApiTokenResponse = z.infer<typeof revokeApiTokenResponse>;
