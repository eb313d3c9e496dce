import type { ErrorCode } from '@strongroom/contracts';
import { MSG } from '@strongroom/contracts';

/** A failure the user may see: its text, a stable code and the HTTP status. Anything else is a 500. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: ErrorCode,
    readonly details?: unknown,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, message, 'VALIDATION_ERROR', details);
export const unauthenticated = (message: string = MSG.notAuthenticated, code: ErrorCode = 'UNAUTHENTICATED') =>
  new AppError(401, message, code);
export const forbidden = (message: string = MSG.permissionDenied) => new AppError(403, message, 'PERMISSION_ERROR');
/** Another organization's ids and ids that do not exist answer the same. */
export const notFound = (message: string = MSG.notFound) => new AppError(404, message, 'NOT_FOUND');
export const conflict = (message: string, details?: unknown) => new AppError(409, message, 'CONFLICT_ERROR', details);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, 'RATE_LIMIT_EXCEEDED', { retryAfterSeconds });

/**
 * The server demands a fresh second factor for this action. The client opens its MFA dialog and sends
 * the same request again with mfaToken (spec part 1, section 4.5).
 */
export const mfaRequired = (operation: string, availableMethods: string[], mfaMethod: string) =>
  new AppError(401, 'MFA_REQUIRED', 'MFA_REQUIRED', { operation, availableMethods, mfaMethod }, {
    mfaRequired: true,
    message: MSG.mfaRequired,
  });
