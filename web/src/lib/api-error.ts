import { MSG, type MfaMethod, type SecondFactorMethod } from '@strongroom/contracts';

export type ApiErrorInit = {
  status: number;
  message: string;
  code?: string;
  details?: unknown;
  mfaRequired?: boolean;
};

/** A failed call: the text to show (`message`), the HTTP status (0 when no answer came), a stable code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: unknown;
  readonly mfaRequired: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.mfaRequired = init.mfaRequired ?? false;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server demands a fresh MFA code: 401 with code MFA_REQUIRED, or any answer flagged mfaRequired. */
export function isMfaRequiredError(error: unknown): error is ApiError {
  return isApiError(error) && ((error.status === 401 && error.code === 'MFA_REQUIRED') || error.mfaRequired);
}

/** The user closed the MFA dialog: callers treat it as a cancellation, never as a failure to toast. */
export function isMfaCancelledError(error: unknown): error is ApiError {
  return isApiError(error) && error.code === 'MFA_CANCELLED';
}

/** The text to show for any thrown value. */
export function errorMessage(error: unknown, fallback: string = MSG.unexpected): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

export type MfaDemand = {
  /** The operation the server named (e.g. MFA_USER_MANAGEMENT), when it named one. */
  operation: string | undefined;
  /** Where the server names no method, totp is assumed. */
  method: MfaMethod;
  /** The code methods, and 'passkey' where a passkey serves this step-up. */
  availableMethods: SecondFactorMethod[];
};

function asMethod(value: unknown): MfaMethod | undefined {
  return value === 'totp' || value === 'email' ? value : undefined;
}

function asAvailable(value: unknown): SecondFactorMethod | undefined {
  return value === 'passkey' ? value : asMethod(value);
}

/** Reads the details of an MFA_REQUIRED answer: `{ operation?, availableMethods?, mfaMethod? }`. */
export function readMfaDemand(error: ApiError): MfaDemand {
  const details = (typeof error.details === 'object' && error.details !== null ? error.details : {}) as Record<string, unknown>;
  const available = Array.isArray(details.availableMethods)
    ? details.availableMethods.map(asAvailable).filter((m): m is SecondFactorMethod => m !== undefined)
    : [];
  const method = asMethod(details.mfaMethod) ?? asMethod(details.method) ?? 'totp';
  return {
    operation: typeof details.operation === 'string' ? details.operation : undefined,
    method,
    availableMethods: available.length > 0 ? available : [method],
  };
}
