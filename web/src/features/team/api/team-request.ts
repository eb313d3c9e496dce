import { apiRequest } from '@/lib/api-client';
import { isApiError, isMfaRequiredError, readMfaDemand, type MfaDemand } from '@/lib/api-error';
import type { WithDates } from '@/lib/dates';
import { requestMfaCode } from '@/lib/mfa-bridge';

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A refusal of the code itself (wrong, expired, reused): the prompt stays open and shows it. */
function isCodeRefusal(error: unknown): boolean {
  return isMfaRequiredError(error) || (isApiError(error) && error.code === 'MFA_INVALID');
}

/**
 * A team administration call. When the server demands a fresh code, the app's MFA prompt asks for it and the
 * same call goes again with it. Only a refused code is shown inside the prompt: any other refusal that comes
 * with the code (the last administrator, an address already invited, a conflict) closes the prompt and rejects
 * the call, so the dialog that started it shows the error. The server checks those rules before it asks for a
 * code, so they normally come at the first try, without a prompt at all.
 */
export async function teamRequest<T>(path: string, body: Record<string, unknown>, fallbackMessage?: string): Promise<WithDates<T>> {
  try {
    return await apiRequest<T>(path, { body, mfaRetry: false, fallbackMessage });
  } catch (error) {
    if (!isMfaRequiredError(error)) throw error;
    return withCode<T>(path, body, readMfaDemand(error), fallbackMessage);
  }
}

/** Asks for a code through the MFA prompt and sends the call with it (see teamRequest for which errors show where). */
export async function withCode<T>(
  path: string,
  body: Record<string, unknown>,
  demand: MfaDemand,
  fallbackMessage?: string,
): Promise<WithDates<T>> {
  const outcome = await requestMfaCode<Outcome<WithDates<T>>>(demand, async (code) => {
    try {
      const value = await apiRequest<T>(path, {
        body: { ...body, mfaToken: code },
        headers: { 'x-mfa-token': code },
        mfaRetry: false,
        fallbackMessage,
      });
      return { ok: true, value };
    } catch (err) {
      if (isCodeRefusal(err)) throw err;
      return { ok: false, error: err };
    }
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
