import { useSyncExternalStore } from 'react';

/**
 * The recovery codes of an authenticator just enrolled on the MFA setup wall, kept until the user says they
 * saved them. The session (refetched on every focus, e.g. after a visit to a password manager) no longer asks
 * for the wall once MFA is on, so the gate keeps the wall up while codes are held here: they are shown once.
 */
let codes: string[] | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function holdRecoveryCodes(next: string[]): void {
  codes = next;
  emit();
}

export function releaseRecoveryCodes(): void {
  codes = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The codes still waiting for 'I have saved these codes', or null. */
export function useUnsavedRecoveryCodes(): string[] | null {
  return useSyncExternalStore(
    subscribe,
    () => codes,
    () => null,
  );
}
