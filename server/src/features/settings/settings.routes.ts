import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  organizationSettingsResponse,
  profileResponse,
  retentionSettingsResponse,
  updateOrganizationRequest,
  updateOrganizationResponse,
  updateProfileRequest,
  updateProfileResponse,
  updateRetentionRequest,
  updateRetentionResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { authOf } from '../sessions/index.js';
import { getOrganization, getProfile, getRetention, updateOrganization, updateProfile, updateRetention } from './settings.service.js';

const tags = ['settings'];

/** Everyone's own profile, guests included. */
const own = { who: 'signed-in' } as const satisfies RouteAccess;
/** The firm's details and retention: admins and users read them; guests see nothing of them. */
const members = { who: 'signed-in', allow: 'member' } as const satisfies RouteAccess;
/** Changing them: administrators. */
const admins = [{ rule: 'member' }, { rule: 'admin' }] as const;

export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/_api/settings/profile',
      {
        schema: { operationId: 'getProfile', summary: "Answers the signed-in user's profile.", tags, response: { 200: profileResponse } },
        config: { access: own },
      },
      async (request) => getProfile(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/profile',
      {
        schema: {
          operationId: 'updateProfile',
          summary: "Changes the user's name or sign-in email; a new email asks for a step-up.",
          tags,
          body: updateProfileRequest,
          response: { 200: updateProfileResponse },
        },
        config: {
          access: {
            who: 'signed-in',
            // The email address is where codes and resets go: changing it takes a fresh code.
            stepUp: {
              operation: 'UPDATE_PROFILE_EMAIL',
              accepts: 'code-or-token',
              when: ({ body, user }) => (body as { email: string }).email.toLowerCase() !== user.email.toLowerCase(),
            },
          },
        },
      },
      async (request) => updateProfile(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/organization',
      {
        schema: {
          operationId: 'getOrganizationSettings',
          summary: "Answers the organization's settings.",
          tags,
          response: { 200: organizationSettingsResponse },
        },
        config: { access: members },
      },
      async (request) => getOrganization(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/organization',
      {
        schema: {
          operationId: 'updateOrganizationSettings',
          summary: "Changes the organization's settings.",
          tags,
          body: updateOrganizationRequest,
          response: { 200: updateOrganizationResponse },
        },
        config: {
          access: {
            who: 'signed-in',
            allow: admins,
            stepUp: { operation: 'MFA_ORGANIZATION_SETTINGS', flag: 'MFA_ORGANIZATION_SETTINGS', accepts: 'code-or-token' },
          },
        },
      },
      async (request) => updateOrganization(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/retention',
      {
        schema: {
          operationId: 'getRetentionPolicy',
          summary: "Answers the organization's retention policy.",
          tags,
          response: { 200: retentionSettingsResponse },
        },
        config: { access: members },
      },
      async (request) => getRetention(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/retention',
      {
        schema: {
          operationId: 'updateRetentionPolicy',
          summary: "Changes the organization's retention policy.",
          tags,
          body: updateRetentionRequest,
          response: { 200: updateRetentionResponse },
        },
        config: {
          access: {
            who: 'signed-in',
            allow: admins,
            stepUp: { operation: 'MFA_RETENTION_POLICIES', flag: 'MFA_RETENTION_POLICIES', accepts: 'code-or-token' },
          },
        },
      },
      async (request) => updateRetention(authOf(request), request.body, requestMeta(request)),
    );
  };
}
