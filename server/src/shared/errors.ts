import type { ErrorCode, ErrorReason } from '@strongroom/contracts';
import { MSG } from '@strongroom/contracts';

/**
 * A failure the user may see: its text, a stable code and the HTTP status. Anything else is a 500. Clients decide
 * on the code and on `details.reason` / `details.field`, never on the text, so every AppError names its code.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: ErrorCode,
    readonly details?: unknown,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The reason the answer names in its details, if any. */
  get reason(): ErrorReason | undefined {
    return (this.details as { reason?: ErrorReason } | null | undefined)?.reason;
  }
}

/** Details of a refusal: why (`reason`), which request field is at fault (`field`), and anything else to tell. */
export type RefusalDetails = { reason?: ErrorReason; field?: string } & Record<string, unknown>;

export const badRequest = (message: string, details?: RefusalDetails) => new AppError(400, message, 'VALIDATION_ERROR', details);
export const unauthenticated = (message: string = MSG.notAuthenticated, code: ErrorCode = 'UNAUTHENTICATED', details?: RefusalDetails) =>
  new AppError(401, message, code, details);
export const forbidden = (message: string = MSG.permissionDenied, details?: RefusalDetails) =>
  new AppError(403, message, 'PERMISSION_ERROR', details);
/** Another organization's ids and ids that do not exist answer the same. */
export const notFound = (message: string = MSG.notFound) => new AppError(404, message, 'NOT_FOUND');
/**
 * A 409. The 409s call for different reactions (reload and merge, fix a field, send again, give up), so each
 * names its reason in `details.reason`: conflict(text, { reason: 'NAME_TAKEN', field: 'name' }).
 */
export const conflict = (message: string, details?: RefusalDetails) => new AppError(409, message, 'CONFLICT_ERROR', details);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, 'RATE_LIMIT_EXCEEDED', { retryAfterSeconds });
/** A service Strongroom needs (the mail server) failed; nothing the user did wrong. */
export const serviceUnavailable = (message: string) => new AppError(503, message, 'SERVICE_UNAVAILABLE');
/** A fault on the server's side whose text the user may still see (a broken configuration, a failed render). */
export const internalError = (message: string = MSG.internalError) => new AppError(500, message, 'INTERNAL_ERROR');

/**
 * The server demands a fresh second factor for this action. The client opens its MFA dialog and sends
 * the same request again with mfaToken.
 */
export const mfaRequired = (operation: string, availableMethods: string[], mfaMethod: string) =>
  new AppError(
    401,
    'MFA_REQUIRED',
    'MFA_REQUIRED',
    { operation, availableMethods, mfaMethod },
    {
      mfaRequired: true,
      message: MSG.mfaRequired,
    },
  );
