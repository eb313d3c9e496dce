import { z } from 'zod';
import { ERROR_CODES, MFA_METHODS, PERMISSION_KEYS, ROLES } from './constants.js';
import { MSG } from './messages.js';

/** A failed answer: the user-facing text, a stable code, and optional details. */
export const errorResponse = z.object({
  error: z.string(),
  code: z.enum(ERROR_CODES).optional(),
  details: z.unknown().optional(),
  mfaRequired: z.boolean().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const roleSchema = z.enum(ROLES, { error: MSG.inviteRoleInvalid });
export const mfaMethodSchema = z.enum(MFA_METHODS);

export const permissionsSchema = z.strictObject(
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, z.boolean()])) as Record<
    (typeof PERMISSION_KEYS)[number],
    z.ZodBoolean
  >,
);

/** Auth calls name the user by integer id (design.md, readings decided). */
export const userIdSchema = z
  .number({ error: MSG.userIdPositive })
  .int({ error: MSG.userIdPositive })
  .positive({ error: MSG.userIdPositive });

/** Organization id: 3 to 64 letters, digits, underscores and hyphens. */
export const organizationIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{3,64}$/, { error: 'Organization ID must be 3 to 64 letters, digits, underscores or hyphens.' });

export const emailSchema = z.email({ error: MSG.validEmail }).max(254, { error: MSG.validEmail });

export const successResponse = z.object({ success: z.literal(true), message: z.string().optional() });

/** The optional fresh MFA code sent with a sensitive action. */
export const optionalMfaToken = z.string().max(64).optional();
