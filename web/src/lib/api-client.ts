import { MSG } from '@strongroom/contracts';
import { ApiError, isMfaRequiredError, readMfaDemand } from './api-error';
import { announceApprovalRequired, ApprovalRequiredError, isApprovalRequiredError, readApprovalRequired } from './approval-required';
import { withDates, type WithDates } from './dates';
import { requestMfaCode } from './mfa-bridge';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ApiRequestOptions = {
  /** Defaults to POST when a body is given, else GET. */
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Defaults to 15 s. */
  timeoutMs?: number;
  /** The text of the error thrown on timeout (the session call uses MSG.authTimeout). */
  timeoutMessage?: string;
  /**
   * Whether an MFA_REQUIRED answer opens the MFA dialog and resends the call with the code (default true).
   * Off for the sign-in steps and the MFA calls themselves.
   */
  mfaRetry?: boolean;
  /**
   * The call's own failure text, shown when a failed answer carries no `error` text (an empty body, an HTML
   * page from a proxy, a bare status), or a function of the status that builds it. Without it the text follows
   * the HTTP status.
   */
  fallbackMessage?: string | ((status: number) => string);
};

const REQUEST_TIMEOUT_MS = 15_000;
/** The timeout text of every call but the session call, which has its own (MSG.authTimeout). */
const REQUEST_TIMEOUT_MESSAGE = MSG.requestTimeout;

type ErrorBody = {
  error?: unknown;
  code?: unknown;
  details?: unknown;
  mfaRequired?: unknown;
  message?: unknown;
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof FormData);
}

function fallbackMessage(status: number): string {
  if (status >= 500) return MSG.internalError;
  if (status === 401) return MSG.notAuthenticated;
  if (status === 403) return MSG.permissionDenied;
  if (status === 404) return MSG.notFound;
  if (status === 429) return MSG.tooManyRequests;
  return MSG.unexpected;
}

function callFallback(status: number, fallback: string | ((status: number) => string) | undefined): string | undefined {
  return typeof fallback === 'function' ? fallback(status) : fallback;
}

/**
 * Builds the ApiError of a non-OK answer from its `{ error, code, details, mfaRequired, message }` body. The text
 * is the server's own when it sent one; otherwise the call's fallback, and only without one a text by status.
 */
export function errorFromAnswer(status: number, body: unknown, fallback?: string | ((status: number) => string)): ApiError {
  const b: ErrorBody = isPlainObject(body) ? body : {};
  const code = typeof b.code === 'string' ? b.code : undefined;
  const errorText = typeof b.error === 'string' && b.error.trim() !== '' ? b.error : undefined;
  const messageText = typeof b.message === 'string' && b.message.trim() !== '' ? b.message : undefined;
  // MFA_REQUIRED answers carry the code in `error` and the human text in `message`.
  const message =
    errorText && errorText !== code
      ? errorText
      : (messageText ?? (code === 'MFA_REQUIRED' ? MSG.mfaRequired : (callFallback(status, fallback) ?? fallbackMessage(status))));
  return new ApiError({ status, code, message, details: b.details, mfaRequired: b.mfaRequired === true });
}

function combineSignals(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One HTTP exchange: JSON in and out, errors as ApiError. No MFA handling. */
async function send<T>(path: string, options: ApiRequestOptions): Promise<T> {
  const hasBody = options.body !== undefined;
  const method = options.method ?? (hasBody ? 'POST' : 'GET');
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = options.signal ? combineSignals([options.signal, timeout.signal]) : timeout.signal;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (hasBody) headers['Content-Type'] = 'application/json';

  try {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: hasBody ? JSON.stringify(options.body) : undefined,
        credentials: 'include',
        signal,
      });
    } catch (error) {
      throw transportError(error, options, timeout.signal);
    }
    let body: unknown;
    try {
      body = await readBody(response);
    } catch (error) {
      throw transportError(error, options, timeout.signal);
    }
    if (!response.ok) throw errorFromAnswer(response.status, body, options.fallbackMessage);
    // A governed call waits for a second administrator: nothing happened, so it is never handed over as a success.
    const pending = readApprovalRequired(response.status, body);
    if (pending) {
      announceApprovalRequired(pending);
      throw new ApprovalRequiredError(pending);
    }
    return body as T;
  } finally {
    clearTimeout(timer);
  }
}

function transportError(error: unknown, options: ApiRequestOptions, timeoutSignal: AbortSignal): unknown {
  // The caller cancelled (e.g. TanStack Query on unmount): pass its abort through untouched.
  if (options.signal?.aborted) return error;
  if (timeoutSignal.aborted) {
    return new ApiError({ status: 0, code: 'TIMEOUT', message: options.timeoutMessage ?? REQUEST_TIMEOUT_MESSAGE });
  }
  return new ApiError({ status: 0, code: 'NETWORK_ERROR', message: MSG.networkError });
}

/** The same call with a fresh MFA code: `mfaToken` in the JSON body and the `x-mfa-token` header. */
function withMfaToken(options: ApiRequestOptions, code: string): ApiRequestOptions {
  const body = options.body === undefined ? undefined : isPlainObject(options.body) ? { ...options.body, mfaToken: code } : options.body;
  return { ...options, body, headers: { ...options.headers, 'x-mfa-token': code } };
}

/**
 * Calls the API. The dates of the matters in an answer arrive as dates (lib/dates). A non-OK answer throws an
 * ApiError carrying the body's `error` text. A 202 APPROVAL_REQUIRED answer (a governed call recorded for a second
 * administrator) opens the waiting dialog and throws an ApprovalRequiredError: callers treat it as 'not done yet'. When the server demands
 * MFA (401 MFA_REQUIRED or mfaRequired: true) the MFA dialog opens and the same request is sent again with
 * the code; the promise settles with that answer, or rejects with MFA_CANCELLED if the user closes the dialog.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<WithDates<T>> {
  return withDates(await exchange<T>(path, options));
}

async function exchange<T>(path: string, options: ApiRequestOptions): Promise<T> {
  try {
    return await send<T>(path, options);
  } catch (error) {
    if (options.mfaRetry === false || !isMfaRequiredError(error)) throw error;
    // A call sent again with the code may be recorded for approval: that closes the code dialog (the code was
    // right) and rejects the call, where any other failure keeps the dialog open with its error.
    const outcome = await requestMfaCode<{ ok: true; value: T } | { ok: false; error: ApprovalRequiredError }>(
      readMfaDemand(error),
      async (code) => {
        try {
          return { ok: true, value: await send<T>(path, withMfaToken(options, code)) };
        } catch (err) {
          if (isApprovalRequiredError(err)) return { ok: false, error: err };
          throw err;
        }
      },
    );
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }
}
