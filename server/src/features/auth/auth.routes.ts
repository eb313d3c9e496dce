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
  loginWithPasskeyRequest,
  mfaVerifyPasskeyRequest,
  passkeyChallengeRequest,
  passkeyLoginOptionsRequest,
  passkeyOptionsResponse,
  type PasskeyAuthenticationResponse,
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
import { loginWithPasskey, passkeyChallenge, passkeyLoginOptions } from './passkey-sign-in.service.js';
import { requestPasswordReset, resetPassword } from './password-reset.service.js';
import { ssoSignInRoutes } from './sso-sign-in.routes.js';

const tags = ['auth'];
const pendingPath = '/_api/auth';

type App = Parameters<FastifyPluginAsyncZod>[0];

/** Ends the pending sign-in's cookie. */
function clearPending(ctx: AppContext, reply: { clearCookie: (n: string, o: object) => unknown }) {
  return reply.clearCookie(PENDING_COOKIE, { path: pendingPath, httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });
}

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    signInRoutes(app, ctx);
    secondStepRoutes(app, ctx);
    passkeyRoutes(app, ctx);
    signOutAndPasswordRoutes(app, ctx);
    ssoSignInRoutes(app, ctx);
  };
}

/** Who is signed in, the password step of signing in, and the start of its second step. */
function signInRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/_api/auth/session',
    {
      schema: {
        operationId: 'getSession',
        summary: 'Tells who is signed in, the organization, and whether the second-factor setup is still due.',
        tags,
        response: { 200: sessionResponse },
      },
      config: { access: { who: 'session-status' } },
    },
    async (request) => {
      const header = request.headers[API_VERSION_HEADER];
      return sessionAnswer(ctx, authOf(request), typeof header === 'string' ? header : undefined);
    },
  );

  app.post(
    '/_api/auth/login_with_password',
    {
      schema: {
        operationId: 'signInWithPassword',
        summary: 'Checks the email and password and starts a pending sign-in that awaits the second factor.',
        tags,
        body: loginRequest,
        response: { 200: loginResponse },
      },
      config: { access: { who: 'public', why: 'signing in: the password is the credential' } },
    },
    async (request, reply) => {
      const { pendingToken, answer } = await loginWithPassword(ctx, request.body, requestMeta(request));
      reply.setCookie(PENDING_COOKIE, pendingToken, cookieOptions(ctx, PENDING_LOGIN_MINUTES * 60, pendingPath));
      return answer;
    },
  );

  app.post(
    '/_api/auth/mfa-challenge',
    {
      schema: {
        operationId: 'startSignInChallenge',
        summary: "Starts the second step of a pending sign-in with the user's second-factor method.",
        tags,
        body: mfaChallengeRequest,
        response: { 200: mfaChallengeResponse },
      },
      config: { access: { who: 'public', why: 'second step of signing in: authorized by the pending sign-in cookie, not a session' } },
    },
    async (request) => {
      const pending = await requirePending(ctx, request.cookies[PENDING_COOKIE], request.body.userId);
      return startChallenge(ctx, pending, requestMeta(request));
    },
  );

  app.post(
    '/_api/auth/mfa-email',
    {
      schema: {
        operationId: 'sendEmailCode',
        summary: 'Emails a one-time code: for a pending sign-in, or to a signed-in user for a step-up.',
        tags,
        body: mfaEmailRequest,
        response: { 200: mfaEmailResponse },
      },
      config: {
        access: {
          who: 'optional',
          why: 'sends the sign-in code: authorized by the pending sign-in cookie (or the caller’s own session)',
        },
      },
    },
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
}

/** The second step of signing in: the authenticator's code, the emailed code or a recovery code. */
function secondStepRoutes(app: App, ctx: AppContext): void {
  const secondStep = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    method: 'totp' | 'email' | 'recovery' | 'passkey',
    code: string | PasskeyAuthenticationResponse,
  ) => {
    const pending = await requirePending(ctx, request.cookies[PENDING_COOKIE], userId);
    try {
      const { sessionToken, answer } = await verifyLoginCode(ctx, pending, method, code, requestMeta(request));
      setSessionCookie(ctx, reply, sessionToken);
      clearPending(ctx, reply);
      return answer;
    } catch (err) {
      // The pending sign-in has ended: its cookie goes too, so the next step starts from the password.
      if (err instanceof AppError && err.reason === 'SIGN_IN_ENDED') clearPending(ctx, reply);
      throw err;
    }
  };
  for (const [path, schema, method] of [
    ['/_api/auth/mfa-verify-totp', mfaVerifyTotpRequest, 'totp'],
    ['/_api/auth/mfa-verify-email', mfaVerifyEmailRequest, 'email'],
  ] as const) {
    const access = { who: 'public', why: 'second step of signing in: authorized by the pending sign-in cookie' } as const;
    app.post(
      path,
      {
        schema: {
          operationId: method === 'totp' ? 'signInWithTotp' : 'signInWithEmailCode',
          summary:
            method === 'totp'
              ? "Completes a pending sign-in with the authenticator app's code and opens the session."
              : 'Completes a pending sign-in with the emailed code and opens the session.',
          tags,
          body: schema,
          response: { 200: mfaVerifyResponse },
        },
        config: { access },
      },
      async (request, reply) => secondStep(request, reply, request.body.userId, method, request.body.token),
    );
  }
  // A recovery code instead of the authenticator's code: the same pending sign-in, limits and session.
  app.post(
    '/_api/auth/mfa-recovery',
    {
      schema: {
        operationId: 'signInWithRecoveryCode',
        summary: 'Completes a pending sign-in with a recovery code and opens the session.',
        tags,
        body: mfaRecoveryRequest,
        response: { 200: mfaRecoveryResponse },
      },
      config: {
        access: { who: 'public', why: 'second step of signing in with a recovery code: authorized by the pending sign-in cookie' },
      },
    },
    async (request, reply) =>
      (await secondStep(request, reply, request.body.userId, 'recovery', request.body.recoveryCode)) as MfaRecoveryResponse,
  );
  // A passkey instead of a code: the same pending sign-in, attempt limits, audit of failures and session.
  app.post(
    '/_api/auth/mfa-verify-passkey',
    {
      schema: {
        operationId: 'signInWithPasskeySecondFactor',
        summary: "Completes a pending sign-in with a passkey's assertion and opens the session.",
        tags,
        body: mfaVerifyPasskeyRequest,
        response: { 200: mfaVerifyResponse },
      },
      config: { access: { who: 'public', why: 'second step of signing in with a passkey: authorized by the pending sign-in cookie' } },
    },
    async (request, reply) => secondStep(request, reply, request.body.userId, 'passkey', request.body.response),
  );
}

/** Passkeys at sign-in: the second step's options, and a passkey alone where the organization allows it. */
function passkeyRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/_api/auth/passkey-challenge',
    {
      schema: {
        operationId: 'startPasskeySignInChallenge',
        summary: "Answers the options of a pending sign-in's passkey step, naming the person's passkeys.",
        tags,
        body: passkeyChallengeRequest,
        response: { 200: passkeyOptionsResponse },
      },
      config: { access: { who: 'public', why: 'second step of signing in: authorized by the pending sign-in cookie, not a session' } },
    },
    async (request) => passkeyChallenge(ctx, await requirePending(ctx, request.cookies[PENDING_COOKIE], request.body.userId)),
  );
  app.post(
    '/_api/auth/passkey-login-options',
    {
      schema: {
        operationId: 'passkeySignInOptions',
        summary: 'Answers the options of a passwordless sign-in: a single-use challenge naming no one.',
        tags,
        body: passkeyLoginOptionsRequest,
        response: { 200: passkeyOptionsResponse },
      },
      config: { access: { who: 'public', why: 'signing in with a passkey: the challenge names no one and grants nothing' } },
    },
    async () => passkeyLoginOptions(ctx),
  );
  app.post(
    '/_api/auth/login_with_passkey',
    {
      schema: {
        operationId: 'signInWithPasskey',
        summary: 'Signs in with a discoverable passkey and user verification, where the organization allows it.',
        tags,
        body: loginWithPasskeyRequest,
        response: { 200: mfaVerifyResponse },
      },
      config: { access: { who: 'public', why: 'signing in: the passkey with user verification is the credential' } },
    },
    async (request, reply) => {
      const { sessionToken, answer } = await loginWithPasskey(ctx, request.body.response, requestMeta(request));
      setSessionCookie(ctx, reply, sessionToken);
      clearPending(ctx, reply);
      return answer;
    },
  );
}

/** Signing out, the password reset by emailed link, and the change of a signed-in user's password. */
function signOutAndPasswordRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/_api/auth/logout',
    {
      schema: {
        operationId: 'signOut',
        summary: "Ends the caller's session, if there is one, and clears its cookies.",
        tags,
        response: { 200: z.object({ success: z.boolean() }) },
      },
      config: { access: { who: 'optional', why: 'signing out ends the caller’s own session, if there is one' } },
    },
    async (request, reply) => {
      await logout(ctx, request.auth, requestMeta(request));
      clearSessionCookie(ctx, reply);
      clearPending(ctx, reply);
      return { success: true };
    },
  );

  app.post(
    '/_api/auth/password-reset',
    {
      schema: {
        operationId: 'requestPasswordReset',
        summary: 'Emails a password reset link; answered alike whether the address exists or not.',
        tags,
        body: passwordResetRequest,
        response: { 200: messageResponse },
      },
      config: { access: { who: 'public', why: 'asking for a reset link: answered the same whether the address exists or not' } },
    },
    async (request) => requestPasswordReset(ctx, request.body.email, requestMeta(request)),
  );

  app.post(
    '/_api/auth/password-reset-verify',
    {
      schema: {
        operationId: 'resetPassword',
        summary: "Sets a new password with the reset link's one-time token.",
        tags,
        body: passwordResetVerifyRequest,
        response: { 200: messageResponse },
      },
      config: { access: { who: 'public', why: 'the reset link: authorized by its one-time token' } },
    },
    async (request) => resetPassword(ctx, request.body, requestMeta(request)),
  );

  app.post(
    '/_api/settings/password',
    {
      schema: {
        operationId: 'changePassword',
        summary: "Changes the signed-in user's password, given the current one.",
        tags: ['settings'],
        body: changePasswordRequest,
        response: { 200: messageResponse },
      },
      config: { access: { who: 'signed-in' } },
    },
    async (request) => changePassword(ctx, authOf(request), request.body, requestMeta(request)),
  );
}
