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
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { manageMfa, mfaSettings, mfaStatus, verifySystemMfa } from './mfa-manage.service.js';
import { regenerateRecoveryCodes } from './recovery-codes.service.js';

export function mfaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/settings/mfa-manage',
      { schema: { tags: ['settings'], body: mfaManageRequest, response: { 200: mfaManageResponse } }, config: { auth: 'setup-wall-ok' } },
      async (request) => manageMfa(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/mfa',
      { schema: { tags: ['settings'], response: { 200: mfaStatusResponse } }, config: { auth: 'setup-wall-ok' } },
      async (request) => mfaStatus(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/mfa',
      { schema: { tags: ['settings'], body: mfaSettingsRequest, response: { 200: mfaManageResponse } }, config: { auth: 'setup-wall-ok' } },
      async (request) => mfaSettings(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/settings/mfa/recovery-codes',
      {
        schema: { tags: ['settings'], body: regenerateRecoveryCodesRequest, response: { 200: recoveryCodesResponse } },
        config: { auth: 'signed-in' },
      },
      async (request) => {
        // The code may come in the body or, as the client's retry sends it, in the X-MFA-Token header.
        const header = request.headers['x-mfa-token'];
        const mfaToken = request.body.mfaToken ?? (typeof header === 'string' ? header : undefined);
        return regenerateRecoveryCodes(ctx, authOf(request), { mfaToken }, requestMeta(request));
      },
    );
    app.post(
      '/_api/auth/verifySystemMfa',
      {
        schema: { tags: ['auth'], body: verifySystemMfaRequest, response: { 200: verifySystemMfaResponse } },
        config: { auth: 'signed-in' },
      },
      async (request) => verifySystemMfa(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
