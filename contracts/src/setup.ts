import { z } from 'zod';
import { LIMITS } from './constants.js';
import { MSG } from './messages.js';
import { emailSchema, text } from './common.js';

/** First run: GET /_api/setup/status and POST /_api/setup with the token the server printed at start. */
export const setupStatusResponse = z.object({ needsSetup: z.boolean() });
export type SetupStatusResponse = z.infer<typeof setupStatusResponse>;
export const setupRequest = z.strictObject({
  setupToken: text().min(1, { error: MSG.setupTokenInvalid }).max(256),
  organizationName: text().trim().min(2, { error: MSG.firmNameRequired }).max(200),
  adminName: text().trim().min(LIMITS.fullNameMin, { error: MSG.fullNameMin }).max(200),
  adminEmail: emailSchema,
  adminPassword: text().min(LIMITS.passwordMin, { error: MSG.passwordMin8 }).max(LIMITS.passwordMax, { error: MSG.passwordMax100Long }),
});
export type SetupRequest = z.infer<typeof setupRequest>;
export const setupResponse = z.object({ organizationId: z.string(), userId: z.number().int() });
export type SetupResponse = z.infer<typeof setupResponse>;
