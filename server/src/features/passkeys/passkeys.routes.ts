import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  passkeyOptionsResponse,
  passkeyPolicyResponse,
  passkeyChangeResponse,
  passkeyRegistrationOptionsRequest,
  passkeysResponse,
  registerPasskeyRequest,
  removePasskeyRequest,
  removePasskeyResponse,
  renamePasskeyRequest,
  updatePasskeyPolicyRequest,
  updatePasskeyPolicyResponse,
} from '@strongroom/contracts';
import type { RouteAccess } from '../../shared/route-access.js';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import {
  listPasskeys,
  passkeyPolicy,
  passkeyRegistrationOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
  updatePasskeyPolicy,
} from './passkeys.service.js';

/** Everyone manages their own passkeys, guests included. */
const own = { who: 'signed-in' } as const satisfies RouteAccess;
/** A passkey is a second factor: adding or removing one takes a fresh code of the person's own second factor. */
const ownFactor = { who: 'signed-in', stepUp: { operation: 'MFA_SETTINGS', accepts: 'code' } } as const satisfies RouteAccess;

export function passkeysRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['passkeys'];
    app.get(
      '/_api/settings/passkeys',
      {
        schema: {
          operationId: 'listPasskeys',
          summary: "Lists one's own passkeys and whether the organization allows passkey sign-in.",
          tags,
          response: { 200: passkeysResponse },
        },
        config: { access: own },
      },
      async (request) => listPasskeys(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/passkeys/registration-options',
      {
        schema: {
          operationId: 'passkeyRegistrationOptions',
          summary: 'Starts adding a passkey: the options (and single-use challenge) for navigator.credentials.create.',
          tags,
          body: passkeyRegistrationOptionsRequest,
          response: { 200: passkeyOptionsResponse },
        },
        config: { access: own },
      },
      async (request) => passkeyRegistrationOptions(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/passkeys',
      {
        schema: {
          operationId: 'registerPasskey',
          summary: "Verifies the browser's new passkey and keeps it under a name, behind a fresh code.",
          tags,
          body: registerPasskeyRequest,
          response: { 200: passkeyChangeResponse },
        },
        config: { access: ownFactor },
      },
      async (request) => registerPasskey(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/settings/passkeys/rename',
      {
        schema: {
          operationId: 'renamePasskey',
          summary: "Renames one of one's own passkeys.",
          tags,
          body: renamePasskeyRequest,
          response: { 200: passkeyChangeResponse },
        },
        config: { access: own },
      },
      async (request) => renamePasskey(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/settings/passkeys/remove',
      {
        schema: {
          operationId: 'removePasskey',
          summary: "Removes one of one's own passkeys, behind a fresh code.",
          tags,
          body: removePasskeyRequest,
          response: { 200: removePasskeyResponse },
        },
        config: { access: ownFactor },
      },
      async (request) => removePasskey(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/passkeys/policy',
      {
        schema: {
          operationId: 'getPasskeyPolicy',
          summary: 'Tells whether the organization allows signing in with a passkey alone.',
          tags,
          response: { 200: passkeyPolicyResponse },
        },
        config: { access: own },
      },
      async (request) => passkeyPolicy(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/passkeys/policy',
      {
        schema: {
          operationId: 'updatePasskeyPolicy',
          summary: 'Allows or stops signing in with a passkey alone for the organization (administrators).',
          tags,
          body: updatePasskeyPolicyRequest,
          response: { 200: updatePasskeyPolicyResponse },
        },
        config: {
          access: {
            who: 'signed-in',
            allow: [{ rule: 'member' }, { rule: 'admin' }],
            stepUp: { operation: 'MFA_ORGANIZATION_SETTINGS', accepts: 'code-or-token' },
          },
        },
      },
      async (request) => updatePasskeyPolicy(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
