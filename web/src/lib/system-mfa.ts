import { useSyncExternalStore } from 'react';
import { LIMITS, MSG, riskClassOf, type SystemMfaOperation } from '@strongroom/contracts';
import { isMfaRequiredError } from './api-error';

/**
 * The system-level MFA prompt: one prompt at a time; closing it rejects the
 * pending call; a verified code yields a token valid for 30 minutes, kept in sessionStorage per operation so
 * a reload within the tab does not ask again. The prompt component (features/mfa) calls the API and then
 * `completeSystemMfa`.
 */
export const SYSTEM_MFA_STORAGE_KEY = 'strongroom.systemMfa';

type StoredTokens = Partial<Record<string, { token: string; expiresAt: number }>>;

export type SystemMfaPrompt = { readonly operation: SystemMfaOperation };

type Pending = SystemMfaPrompt & { resolve: (token: string) => void; reject: (error: Error) => void };

let pending: Pending | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function readStored(): StoredTokens {
  const raw = storage()?.getItem(SYSTEM_MFA_STORAGE_KEY);
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as StoredTokens) : {};
  } catch {
    return {};
  }
}

function writeStored(tokens: StoredTokens): void {
  try {
    storage()?.setItem(SYSTEM_MFA_STORAGE_KEY, JSON.stringify(tokens));
  } catch {
    /* storage full or blocked: the token just lives as long as the call */
  }
}

/**
 * Operations that take a fresh code every time and never a kept token: approving another administrator's request
 * (the server refuses a system token for it). Nothing is kept for them and no kept token is handed out for them,
 * whatever the risk class of the tokens held.
 */
const CODE_ONLY_OPERATIONS: readonly string[] = ['APPROVE_REQUEST'];

function isCodeOnlyOperation(operation: string): boolean {
  return CODE_ONLY_OPERATIONS.includes(operation);
}

/**
 * A still-valid system MFA token for the operation, or null (always null for a code-only operation): the operation's own, else one kept for another
 * operation of the same risk class (the server accepts a token for every operation of its class, so a code given
 * once is not asked for again within the class while the token lives).
 */
export function getSystemMfaToken(operation: SystemMfaOperation | 'APPROVE_REQUEST', now: number = Date.now()): string | null {
  if (isCodeOnlyOperation(operation)) return null;
  const tokens = readStored();
  const own = tokens[operation];
  if (own && own.expiresAt > now) return own.token;
  const riskClass = riskClassOf(operation);
  for (const [issuedFor, entry] of Object.entries(tokens)) {
    if (isCodeOnlyOperation(issuedFor)) continue;
    if (entry && entry.expiresAt > now && riskClassOf(issuedFor) === riskClass) return entry.token;
  }
  return null;
}

/** Keeps the token until the earlier of the server's expiry and 30 minutes from now. */
export function storeSystemMfaToken(
  operation: SystemMfaOperation | 'APPROVE_REQUEST',
  token: string,
  serverExpiresAt?: string,
  now: number = Date.now(),
): number {
  // A code-only operation's code serves its one call: nothing is kept.
  if (isCodeOnlyOperation(operation)) return now;
  const cap = now + LIMITS.systemMfaTokenMinutes * 60_000;
  const server = serverExpiresAt ? Date.parse(serverExpiresAt) : Number.NaN;
  const expiresAt = Number.isFinite(server) ? Math.min(server, cap) : cap;
  const tokens = readStored();
  for (const [key, value] of Object.entries(tokens)) if (!value || value.expiresAt <= now) delete tokens[key];
  tokens[operation] = { token, expiresAt };
  writeStored(tokens);
  return expiresAt;
}

export function clearSystemMfaTokens(): void {
  try {
    storage()?.removeItem(SYSTEM_MFA_STORAGE_KEY);
  } catch {
    /* ignore */
  }
}

/**
 * Resolves with a system MFA token for the operation: the stored one while valid, else after the user
 * verifies a code in the prompt. Rejects with 'MFA prompt is already active.' while another prompt is open,
 * and with 'MFA prompt was closed by the user.' when the prompt is closed.
 */
export function requireSystemMfa(operation: SystemMfaOperation): Promise<string> {
  const stored = getSystemMfaToken(operation);
  if (stored) return Promise.resolve(stored);
  if (pending) return Promise.reject(new Error(MSG.mfaPromptActive));
  return new Promise<string>((resolve, reject) => {
    pending = { operation, resolve, reject };
    emit();
  });
}

/** Forgets the tokens of the operation's class (the server refused one: expired early, or another session). */
export function forgetSystemMfaToken(operation: SystemMfaOperation): void {
  const tokens = readStored();
  const riskClass = riskClassOf(operation);
  for (const issuedFor of Object.keys(tokens)) if (riskClassOf(issuedFor) === riskClass) delete tokens[issuedFor];
  writeStored(tokens);
}

/**
 * Runs a call that needs a system MFA token: asks for one if none is stored, passes it to `call` (send it as
 * `mfaToken` or the `x-mfa-token` header), and if the server refuses it (MFA_REQUIRED) asks once more.
 */
export async function runWithSystemMfa<T>(operation: SystemMfaOperation, call: (token: string) => Promise<T>): Promise<T> {
  const token = await requireSystemMfa(operation);
  try {
    return await call(token);
  } catch (error) {
    if (!isMfaRequiredError(error)) throw error;
    forgetSystemMfaToken(operation);
    return call(await requireSystemMfa(operation));
  }
}

/** Called by the prompt after POST /_api/auth/verifySystemMfa succeeded. */
export function completeSystemMfa(token: string, serverExpiresAt?: string): void {
  const current = pending;
  if (!current) return;
  storeSystemMfaToken(current.operation, token, serverExpiresAt);
  pending = null;
  emit();
  current.resolve(token);
}

/** Called when the user closes the prompt. */
export function closeSystemMfaPrompt(): void {
  const current = pending;
  if (!current) return;
  pending = null;
  emit();
  current.reject(new Error(MSG.mfaPromptClosed));
}

function getPrompt(): SystemMfaPrompt | null {
  return pending;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSystemMfaPrompt(): SystemMfaPrompt | null {
  return useSyncExternalStore(subscribe, getPrompt, getPrompt);
}
