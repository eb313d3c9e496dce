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
import { authOf } from '../sessions/index.js';
import { getOrganization, getProfile, getRetention, updateOrganization, updateProfile, updateRetention } from './settings.service.js';

const tags = ['settings'];

export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/_api/settings/profile',
      { schema: { tags, response: { 200: profileResponse } }, config: { auth: 'signed-in' } },
      async (request) => getProfile(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/profile',
      { schema: { tags, body: updateProfileRequest, response: { 200: updateProfileResponse } }, config: { auth: 'signed-in' } },
      async (request) => updateProfile(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/organization',
      { schema: { tags, response: { 200: organizationSettingsResponse } }, config: { auth: 'signed-in' } },
      async (request) => getOrganization(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/organization',
      { schema: { tags, body: updateOrganizationRequest, response: { 200: updateOrganizationResponse } }, config: { auth: 'signed-in' } },
      async (request) => updateOrganization(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/retention',
      { schema: { tags, response: { 200: retentionSettingsResponse } }, config: { auth: 'signed-in' } },
      async (request) => getRetention(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/retention',
      { schema: { tags, body: updateRetentionRequest, response: { 200: updateRetentionResponse } }, config: { auth: 'signed-in' } },
      async (request) => updateRetention(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
