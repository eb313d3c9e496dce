import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SSO_LIMITS,
  ssoDiscoverRequest,
  ssoDiscoverResponse,
  ssoIdentityResponse,
  ssoSettingsResponse,
  ssoStartQuery,
  ssoUnlinkRequest,
  ssoUnlinkResponse,
  updateSsoSettingsRequest,
  updateSsoSettingsResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf, cookieOptions } from '../sessions/index.js';
import {
  discoverSso,
  getSsoIdentity,
  getSsoSettings,
  startSsoLink,
  startSsoSignIn,
  unlinkSso,
  updateSsoSettings,
  type SsoStart,
} from './sso.service.js';

/** The browser's own state for a sign-in at the provider: the callback takes only the state this cookie names. */
export const SSO_STATE_COOKIE = 'sr_sso_state';
export const SSO_STATE_PATH = '/_api/auth/sso';

const admins = [{ rule: 'member' }, { rule: 'admin' }] as const;
const redirect = z.null().describe('A redirect (302) to the provider; Location names it.');

export function ssoRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const toProvider = (reply: FastifyReply, start: SsoStart) => {
      reply.setCookie(SSO_STATE_COOKIE, start.state, cookieOptions(ctx, SSO_LIMITS.stateMinutes * 60, SSO_STATE_PATH));
      return reply.redirect(start.location, 302);
    };
    app.get(
      '/_api/settings/sso',
      {
        schema: {
          operationId: 'getSsoSettings',
          summary: "Answers the organization's single sign-on provider (never its client secret) and the redirect URI.",
          tags: ['settings'],
          response: { 200: ssoSettingsResponse },
        },
        config: { access: { who: 'signed-in', allow: admins } },
      },
      async (request) => getSsoSettings(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/sso',
      {
        schema: {
          operationId: 'updateSsoSettings',
          summary: "Sets the organization's single sign-on provider, verified domains and rules, behind a fresh code.",
          tags: ['settings'],
          body: updateSsoSettingsRequest,
          response: { 200: updateSsoSettingsResponse },
        },
        // Who may sign in to the firm, and how: only behind a fresh code of the administrator's own second factor.
        config: { access: { who: 'signed-in', allow: admins, stepUp: { operation: 'UPDATE_SSO_SETTINGS', accepts: 'code' } } },
      },
      async (request) => updateSsoSettings(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/sso/identity',
      {
        schema: {
          operationId: 'getSsoIdentity',
          summary: "Answers the organization's provider and whether the signed-in person's account is linked to it.",
          tags: ['settings'],
          response: { 200: ssoIdentityResponse },
        },
        config: { access: { who: 'signed-in' } },
      },
      async (request) => getSsoIdentity(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/sso/unlink',
      {
        schema: {
          operationId: 'unlinkSsoIdentity',
          summary: "Removes the link between the signed-in person's account and the provider, behind a fresh code.",
          tags: ['settings'],
          body: ssoUnlinkRequest,
          response: { 200: ssoUnlinkResponse },
        },
        config: { access: { who: 'signed-in', stepUp: { operation: 'UNLINK_SSO_IDENTITY', accepts: 'code' } } },
      },
      async (request) => unlinkSso(ctx, authOf(request), requestMeta(request)),
    );
    app.post(
      '/_api/auth/sso/discover',
      {
        schema: {
          operationId: 'discoverSso',
          summary: "Tells whether an address's domain signs in with a provider; answered from the domain alone.",
          tags: ['auth'],
          body: ssoDiscoverRequest,
          response: { 200: ssoDiscoverResponse },
        },
        config: { access: { who: 'public', why: 'before signing in: answered from the domain alone, the same for any address' } },
      },
      async (request) => discoverSso(ctx, request.body.email),
    );
    app.get(
      '/_api/auth/sso/start',
      {
        schema: {
          operationId: 'startSsoSignIn',
          summary: "Redirects to the provider of the address's domain, with PKCE, state and nonce.",
          tags: ['auth'],
          querystring: ssoStartQuery,
          response: { 302: redirect },
        },
        config: { access: { who: 'public', why: 'signing in: the provider authenticates the person' } },
      },
      async (request, reply) => toProvider(reply, await startSsoSignIn(ctx, request.query.email)),
    );
    app.get(
      '/_api/auth/sso/link',
      {
        schema: {
          operationId: 'startSsoLink',
          summary: "Redirects to the organization's provider to link it to the signed-in person's account.",
          tags: ['auth'],
          response: { 302: redirect },
        },
        config: { access: { who: 'signed-in' } },
      },
      async (request, reply) => toProvider(reply, await startSsoLink(ctx, authOf(request))),
    );
  };
}
