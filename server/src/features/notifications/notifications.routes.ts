import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  markNotificationsReadRequest,
  markNotificationsReadResponse,
  notificationsQuery,
  notificationsResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { authOf } from '../sessions/index.js';
import { listNotifications, markNotificationsRead } from './notifications.service.js';

export function notificationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Everyone signed in: the answer holds only the notifications the caller may see, and marks only their own.
    const config = { access: { who: 'signed-in' } } as const satisfies { access: RouteAccess };
    const tags = ['notifications'];
    app.get(
      '/_api/notifications',
      {
        schema: {
          operationId: 'listNotifications',
          summary: 'Lists the newest notifications the caller may see, with the count of every unread one.',
          tags,
          querystring: notificationsQuery,
          response: { 200: notificationsResponse },
        },
        config,
      },
      async (request) => listNotifications(ctx, authOf(request), request.query),
    );
    app.post(
      '/_api/notifications/read',
      {
        schema: {
          operationId: 'markNotificationsRead',
          summary: 'Marks the given notifications, or all of them, read for the caller in every browser.',
          tags,
          body: markNotificationsReadRequest,
          response: { 200: markNotificationsReadResponse },
        },
        config,
      },
      async (request) => markNotificationsRead(ctx, authOf(request), request.body),
    );
  };
}
