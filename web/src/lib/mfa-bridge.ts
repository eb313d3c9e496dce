import { useSyncExternalStore } from 'react';
import { MSG } from '@strongroom/contracts';
import { ApiError, type MfaDemand } from './api-error';

/**
 * Connects the api client to the sensitive-action MFA dialog. When the server answers MFA_REQUIRED, the
 * client queues a request here; the dialog (mounted once by the app) shows the first request, and each code
 * the user submits resends the original call with that code. Requests are answered one at a time.
 */
export type MfaRequest = {
  readonly id: number;
  readonly demand: MfaDemand;
  /** Resends the original call with the code; throws when the code is refused. */
  readonly submit: (code: string) => Promise<void>;
  readonly cancel: () => void;
};

type Listener = () => void;

let queue: MfaRequest[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

function remove(id: number): void {
  queue = queue.filter((r) => r.id !== id);
  emit();
}

/** What a closed dialog rejects the original call with: MFA_CANCELLED, never toasted. */
function mfaCancelledError(): ApiError {
  return new ApiError({ status: 401, code: 'MFA_CANCELLED', message: MSG.mfaRequired, mfaRequired: true });
}

/**
 * Asks the user for a code and resolves with the answer of `resend(code)`. A refused code keeps the request
 * open (the dialog shows the error); closing the dialog rejects with an MFA_CANCELLED ApiError.
 */
export function requestMfaCode<T>(demand: MfaDemand, resend: (code: string) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const id = nextId++;
    let settled = false;
    const request: MfaRequest = {
      id,
      demand,
      submit: async (code: string) => {
        if (settled) return;
        const result = await resend(code);
        settled = true;
        remove(id);
        resolve(result);
      },
      cancel: () => {
        if (settled) return;
        settled = true;
        remove(id);
        reject(mfaCancelledError());
      },
    };
    queue = [...queue, request];
    emit();
  });
}

export function getCurrentMfaRequest(): MfaRequest | null {
  return queue[0] ?? null;
}

export function subscribeMfaRequests(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The request the dialog should show now, or null. */
export function useCurrentMfaRequest(): MfaRequest | null {
  return useSyncExternalStore(subscribeMfaRequests, getCurrentMfaRequest, getCurrentMfaRequest);
}

/** Test helper: forget every pending request without settling it. */
export function resetMfaRequestsForTest(): void {
  queue = [];
  emit();
}
