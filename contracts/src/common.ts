import { z } from 'zod';
import { ERROR_CODES, ERROR_REASONS, MFA_METHODS, PERMISSION_KEYS, ROLES, type ErrorReason } from './constants.js';
import { MSG } from './messages.js';

// ---- Text and free-form JSON -------------------------------------------------------------------------

// A NUL character, or half of a UTF-16 surrogate pair without its other half: nobody types them, PostgreSQL
// cannot store them (text refuses NUL, jsonb refuses both), and they hide in names and logs.
const FORBIDDEN_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function hasForbiddenCharacters(s: string): boolean {
  return FORBIDDEN_TEXT.test(s);
}

/**
 * Every text a request carries is declared with text() instead of z.string(): the same string schema, refusing
 * NUL and lone surrogates first with one clear message (the further checks are then skipped).
 */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((s) => !hasForbiddenCharacters(s), { error: MSG.textNotAllowed, abort: true });

/** Deepest nesting any JSON body or query may have; free-form fields have their own, lower cap. */
export const MAX_REQUEST_DEPTH = 32;

export type JsonProblem = 'text' | 'depth';

/**
 * Walks a parsed JSON value without recursion (so any depth is safe) and reports the first problem: a string
 * (value or key) with forbidden characters, or nesting deeper than maxDepth (a scalar at the top is depth 0, the
 * members of an object or array one deeper than it).
 */
export function jsonProblem(value: unknown, maxDepth: number): JsonProblem | null {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (hasForbiddenCharacters(v)) return 'text';
    } else if (v !== null && typeof v === 'object') {
      if (depth + 1 > maxDepth) return 'depth';
      if (Array.isArray(v)) {
        for (const item of v) stack.push([item, depth + 1]);
      } else {
        for (const [k, item] of Object.entries(v)) {
          if (hasForbiddenCharacters(k)) return 'text';
          stack.push([item, depth + 1]);
        }
      }
    }
  }
  return null;
}

export const JSON_FIELD_LIMITS = { maxBytes: 16 * 1024, maxDepth: 8 } as const;

/**
 * A free-form JSON object (the details of a reported event): at most maxDepth levels and maxBytes serialized as
 * UTF-8, with the text rule applied to every key and string inside.
 */
export function jsonObjectField(field: string, limits: { maxBytes: number; maxDepth: number } = JSON_FIELD_LIMITS) {
  return z.record(z.string(), z.unknown()).superRefine((v, ctx) => {
    const problem = jsonProblem(v, limits.maxDepth);
    if (problem === 'text') return ctx.addIssue({ code: 'custom', message: MSG.textNotAllowed, input: v });
    if (problem === 'depth') return ctx.addIssue({ code: 'custom', message: MSG.jsonTooDeep(field, limits.maxDepth), input: v });
    if (new TextEncoder().encode(JSON.stringify(v)).length > limits.maxBytes) {
      ctx.addIssue({ code: 'custom', message: MSG.jsonTooLarge(field, Math.round(limits.maxBytes / 1024)), input: v });
    }
  });
}

/**
 * A failed answer: the user-facing text, a stable code (always present: clients decide on it and on
 * `details.reason`, never on the text), and optional details.
 */
export const errorResponse = z.object({
  error: z.string(),
  code: z.enum(ERROR_CODES),
  details: z.unknown().optional(),
  mfaRequired: z.boolean().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const errorReasonSchema = z.enum(ERROR_REASONS);

/**
 * What a client decides on in a failed answer's details: why it was refused (`reason`) and which request field
 * is at fault (`field`), when the server names them. Other details pass through untouched.
 */
export const errorDetailsSchema = z.looseObject({ reason: errorReasonSchema.optional(), field: z.string().optional() });
export type ErrorDetails = z.infer<typeof errorDetailsSchema>;

/** The reason and field of a failed answer's details; both undefined when the details name none (or are not an object). */
export function readErrorDetails(details: unknown): { reason: ErrorReason | undefined; field: string | undefined } {
  const reason = errorReasonSchema.safeParse((details as { reason?: unknown } | null | undefined)?.reason);
  const field = (details as { field?: unknown } | null | undefined)?.field;
  return { reason: reason.success ? reason.data : undefined, field: typeof field === 'string' ? field : undefined };
}

export const roleSchema = z.enum(ROLES, { error: MSG.inviteRoleInvalid });
export const mfaMethodSchema = z.enum(MFA_METHODS);

export const permissionsSchema = z.strictObject(
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, z.boolean()])) as Record<(typeof PERMISSION_KEYS)[number], z.ZodBoolean>,
);

/** Auth calls name the user by the integer id of the users table. */
export const userIdSchema = z
  .number({ error: MSG.userIdPositive })
  .int({ error: MSG.userIdPositive })
  .positive({ error: MSG.userIdPositive });

/** Organization id: 3 to 64 letters, digits, underscores and hyphens. */
export const organizationIdSchema = text().regex(/^[A-Za-z0-9_-]{3,64}$/, { error: MSG.organizationIdFormat });

export const emailSchema = z.email({ error: MSG.validEmail }).max(254, { error: MSG.validEmail });

export const successResponse = z.object({ success: z.literal(true), message: z.string().optional() });
export type SuccessResponse = z.infer<typeof successResponse>;

/** The optional fresh MFA code sent with a sensitive action. */
export const optionalMfaToken = text().max(64).optional();
