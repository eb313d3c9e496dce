import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_VERSION_HEADER,
  changePasswordRequest,
  loginRequest,
  loginResponse,
  messageResponse,
  mfaChallengeRequest,
  mfaChallengeResponse,
  mfaEmailRequest,
  mfaEmailResponse,
  mfaRecoveryRequest,
  mfaRecoveryResponse,
  type MfaRecoveryResponse,
  mfaVerifyEmailRequest,
  mfaVerifyResponse,
  mfaVerifyTotpRequest,
  passwordResetRequest,
  passwordResetVerifyRequest,
  sessionResponse,
  MSG,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { AppError, badRequest } from '../../shared/errors.js';
import { requestMeta } from '../../shared/request-meta.js';
import { sendActionEmailCode } from '../mfa/index.js';
import { authOf, clearSessionCookie, cookieOptions, PENDING_COOKIE, setSessionCookie } from '../sessions/index.js';
import {
  loginWithPassword,
  logout,
  PENDING_LOGIN_MINUTES,
  requirePending,
  sendLoginEmailCode,
  sessionAnswer,
  startChallenge,
  verifyLoginCode,
} from './auth.service.js';
import { changePassword } from './password-change.service.js';
import { requestPasswordReset, resetPassword } from './password-reset.service.js';

const tags = ['auth'];

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const pendingPath = '/_api/auth';
    const clearPending = (reply: { clearCookie: (n: string, o: object) => unknown }) =>
      reply.clearCookie(PENDING_COOKIE, { path: pendingPath, httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });

    app.get(
      '/_api/auth/session',
      { schema: { tags, response: { 200: sessionResponse } }, config: { auth: 'session-status' } },
      async (request) => {
        const header = request.headers[API_VERSION_HEADER];
        return sessionAnswer(ctx, authOf(request), typeof header === 'string' ? header : undefined);
      },
    );

    app.post(
      '/_api/auth/login_with_password',
      { schema: { tags, body: loginRequest, response: { 200: loginResponse } } },
      async (request, reply) => {
        const { pendingToken, answer } = await loginWithPassword(ctx, request.body, requestMeta(request));
        reply.setCookie(PENDING_COOKIE, pendingToken, cookieOptions(ctx, PENDING_LOGIN_MINUTES * 60, pendingPath));
        return answer;
      },
    );

    app.post(
      '/_api/auth/mfa-challenge',
      { schema: { tags, body: mfaChallengeRequest, response: { 200: mfaChallengeResponse } } },
      async (request) => {
        const pending = await requirePending(ctx, request.cookies[PENDING_COOKIE], request.body.userId);
        return startChallenge(ctx, pending, requestMeta(request));
      },
    );

    app.post(
      '/_api/auth/mfa-email',
      { schema: { tags, body: mfaEmailRequest, response: { 200: mfaEmailResponse } }, config: { auth: 'optional' } },
      async (request) => {
        const meta = requestMeta(request);
        const pendingToken = request.cookies[PENDING_COOKIE];
        if (pendingToken) {
          const pending = await requirePending(ctx, pendingToken, request.body.userId);
          return sendLoginEmailCode(ctx, pending, meta);
        }
        // Signed in: a code for a sensitive action or the system MFA prompt.
        const auth = request.auth;
        if (!auth || auth.user.id !== request.body.userId) throw badRequest(MSG.emailAuthRequired);
        return sendActionEmailCode(ctx, auth, meta);
      },
    );

    const secondStep = async (
      request: FastifyRequest,
      reply: FastifyReply,
      userId: number,
      method: 'totp' | 'email' | 'recovery',
      code: string,
    ) => {
      const pending = await requirePending(ctx, request.cookies[PENDING_COOKIE], userId);
      try {
        const { sessionToken, answer } = await verifyLoginCode(ctx, pending, method, code, requestMeta(request));
        setSessionCookie(ctx, reply, sessionToken);
        clearPending(reply);
        return answer;
      } catch (err) {
        // The pending sign-in has ended: its cookie goes too, so the next step starts from the password.
        if (err instanceof AppError && err.reason === 'SIGN_IN_ENDED') clearPending(reply);
        throw err;
      }
    };
    for (const [path, schema, method] of [
      ['/_api/auth/mfa-verify-totp', mfaVerifyTotpRequest, 'totp'],
      ['/_api/auth/mfa-verify-email', mfaVerifyEmailRequest, 'email'],
    ] as const) {
      app.post(path, { schema: { tags, body: schema, response: { 200: mfaVerifyResponse } } }, async (request, reply) =>
        secondStep(request, reply, request.body.userId, method, request.body.token),
      );
    }
    // A recovery code instead of the authenticator's code: the same pending sign-in, limits and session.
    app.post(
      '/_api/auth/mfa-recovery',
      { schema: { tags, body: mfaRecoveryRequest, response: { 200: mfaRecoveryResponse } } },
      async (request, reply) =>
        (await secondStep(request, reply, request.body.userId, 'recovery', request.body.recoveryCode)) as MfaRecoveryResponse,
    );

    app.post(
      '/_api/auth/logout',
      { schema: { tags, response: { 200: z.object({ success: z.boolean() }) } }, config: { auth: 'optional' } },
      async (request, reply) => {
        await logout(ctx, request.auth, requestMeta(request));
        clearSessionCookie(ctx, reply);
        clearPending(reply);
        return { success: true };
      },
    );

    app.post(
      '/_api/auth/password-reset',
      { schema: { tags, body: passwordResetRequest, response: { 200: messageResponse } } },
      async (request) => requestPasswordReset(ctx, request.body.email, requestMeta(request)),
    );

    app.post(
      '/_api/auth/password-reset-verify',
      { schema: { tags, body: passwordResetVerifyRequest, response: { 200: messageResponse } } },
      async (request) => resetPassword(ctx, request.body, requestMeta(request)),
    );

    app.post(
      '/_api/settings/password',
      { schema: { tags: ['settings'], body: changePasswordRequest, response: { 200: messageResponse } }, config: { auth: 'signed-in' } },
      async (request) => changePassword(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
