import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ssoCallbackQuery, ssoPendingResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { cookieOptions, PENDING_COOKIE, setSessionCookie } from '../sessions/index.js';
import { completeSsoCallback, SSO_STATE_COOKIE, SSO_STATE_PATH } from '../sso/index.js';
import { PENDING_LOGIN_MINUTES } from './auth.service.js';
import { finishSsoSignIn, ssoPendingSignIn } from './sso-sign-in.service.js';

type App = Parameters<FastifyPluginAsyncZod>[0];

/** Where the browser lands after the provider: /login (its second step or the refusal's text), or Settings. */
const landing = {
  signedIn: '/',
  secondStep: '/login?sso=second-step',
  linked: '/settings?sso_linked=1',
  refused: (code: string, intent: 'sign-in' | 'link') => (intent === 'link' ? `/settings?sso_error=${code}` : `/login?sso_error=${code}`),
};

/** The provider's callback, and the pending sign-in it leaves for /login's second step. */
export function ssoSignInRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/_api/auth/sso/callback',
    {
      schema: {
        operationId: 'finishSsoSignIn',
        summary: "The provider's redirect back: verifies the answer, then signs in, asks for the second factor, or links.",
        tags: ['auth'],
        querystring: ssoCallbackQuery,
        response: { 302: z.null().describe('A redirect (302) to /login or Settings.') },
      },
      config: {
        access: {
          who: 'optional',
          why: "the provider's answer: authorized by the browser's state cookie, the code and the ID token (a link: the session too)",
        },
        crossSiteEntry:
          "the provider redirects the browser here from its own site; the single-use state, bound to this browser's cookie, is the proof",
      },
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const at = request.url.indexOf('?');
      const outcome = await completeSsoCallback(
        ctx,
        {
          stateCookie: request.cookies[SSO_STATE_COOKIE],
          search: at < 0 ? '' : request.url.slice(at),
          state: request.query.state,
          auth: request.auth ?? null,
        },
        meta,
      );
      reply.clearCookie(SSO_STATE_COOKIE, { path: SSO_STATE_PATH, httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });
      if (outcome.kind === 'refused') return reply.redirect(landing.refused(outcome.code, outcome.intent), 302);
      if (outcome.kind === 'linked') return reply.redirect(landing.linked, 302);
      const done = await finishSsoSignIn(ctx, outcome, meta);
      if ('sessionToken' in done) {
        setSessionCookie(ctx, reply, done.sessionToken);
        return reply.redirect(landing.signedIn, 302);
      }
      reply.setCookie(PENDING_COOKIE, done.pendingToken, cookieOptions(ctx, PENDING_LOGIN_MINUTES * 60, '/_api/auth'));
      return reply.redirect(landing.secondStep, 302);
    },
  );
  app.get(
    '/_api/auth/sso/pending',
    {
      schema: {
        operationId: 'getSsoPendingSignIn',
        summary: 'Answers the person of the pending sign-in a provider started, for the second step on /login.',
        tags: ['auth'],
        response: { 200: ssoPendingResponse },
      },
      config: { access: { who: 'public', why: 'second step of signing in: authorized by the pending sign-in cookie' } },
    },
    async (request) => ssoPendingSignIn(ctx, request.cookies[PENDING_COOKIE]),
  );
}
