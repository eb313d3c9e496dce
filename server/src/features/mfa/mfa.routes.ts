import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  mfaManageRequest,
  mfaManageResponse,
  mfaSettingsRequest,
  mfaStatusResponse,
  recoveryCodesResponse,
  regenerateRecoveryCodesRequest,
  verifySystemMfaRequest,
  verifySystemMfaResponse,
  passkeyOptionsResponse,
  passkeyStepUpOptionsRequest,
  passkeyStepUpRequest,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { manageMfa, mfaSettings, mfaStatus, verifySystemMfa } from './mfa-manage.service.js';
import { regenerateRecoveryCodes } from './recovery-codes.service.js';
import { passkeyStepUp, passkeyStepUpOptions } from './passkey-step-up.service.js';

export function mfaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/settings/mfa-manage',
      {
        schema: {
          operationId: 'manageMfa',
          summary: "Sets up, switches or confirms the user's second-factor method.",
          tags: ['settings'],
          body: mfaManageRequest,
          response: { 200: mfaManageResponse },
        },
        config: { access: { who: 'setup-wall-ok' } },
      },
      async (request) => manageMfa(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/mfa',
      {
        schema: {
          operationId: 'getMfaStatus',
          summary: "Tells the user's second-factor method and how many recovery codes remain.",
          tags: ['settings'],
          response: { 200: mfaStatusResponse },
        },
        config: { access: { who: 'setup-wall-ok' } },
      },
      async (request) => mfaStatus(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/mfa',
      {
        schema: {
          operationId: 'changeMfaMethod',
          summary: "Switches the user's second-factor method between authenticator app and emailed codes.",
          tags: ['settings'],
          body: mfaSettingsRequest,
          response: { 200: mfaManageResponse },
        },
        config: { access: { who: 'setup-wall-ok' } },
      },
      async (request) => mfaSettings(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/settings/mfa/recovery-codes',
      {
        schema: {
          operationId: 'regenerateRecoveryCodes',
          summary: "Replaces the user's recovery codes with new ones, behind a fresh code.",
          tags: ['settings'],
          body: regenerateRecoveryCodesRequest,
          response: { 200: recoveryCodesResponse },
        },
        // These codes are a second factor themselves: only a fresh code of the authenticator buys new ones.
        config: { access: { who: 'signed-in', stepUp: { operation: 'MFA_SETTINGS', accepts: 'code' } } },
      },
      async (request) => regenerateRecoveryCodes(ctx, authOf(request), requestMeta(request)),
    );
    app.post(
      '/_api/auth/verifySystemMfa',
      {
        schema: {
          operationId: 'verifySystemMfa',
          summary: "Exchanges a fresh code for a short-lived system MFA token of an operation's risk class.",
          tags: ['auth'],
          body: verifySystemMfaRequest,
          response: { 200: verifySystemMfaResponse },
        },
        config: { access: { who: 'signed-in' } },
      },
      async (request) => verifySystemMfa(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/auth/passkey-step-up-options',
      {
        schema: {
          operationId: 'passkeyStepUpOptions',
          summary: "Answers the options of a passkey step-up for an operation, naming the person's passkeys.",
          tags: ['auth'],
          body: passkeyStepUpOptionsRequest,
          response: { 200: passkeyOptionsResponse },
        },
        config: { access: { who: 'signed-in' } },
      },
      async (request) => passkeyStepUpOptions(ctx, authOf(request), request.body),
    );
    app.post(
      '/_api/auth/passkey-step-up',
      {
        schema: {
          operationId: 'verifyPasskeyStepUp',
          summary: "Exchanges a passkey's assertion for a short-lived system MFA token of an operation's risk class.",
          tags: ['auth'],
          body: passkeyStepUpRequest,
          response: { 200: verifySystemMfaResponse },
        },
        config: { access: { who: 'signed-in' } },
      },
      async (request) => passkeyStepUp(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
