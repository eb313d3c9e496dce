import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { ApiError } from './api-error';
import {
  clearSystemMfaTokens,
  closeSystemMfaPrompt,
  completeSystemMfa,
  getSystemMfaToken,
  requireSystemMfa,
  runWithSystemMfa,
  storeSystemMfaToken,
  SYSTEM_MFA_STORAGE_KEY,
} from './system-mfa';

describe('system MFA prompt', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    closeSystemMfaPrompt();
    clearSystemMfaTokens();
  });

  it('allows one prompt at a time', async () => {
    const first = requireSystemMfa('EXPORT_AUDIT_LOGS');
    await expect(requireSystemMfa('MANAGE_FEATURE_FLAGS')).rejects.toThrow(MSG.mfaPromptActive);
    closeSystemMfaPrompt();
    await expect(first).rejects.toThrow(MSG.mfaPromptClosed);
  });

  it('resolves with the verified token and keeps it for the next call', async () => {
    const pending = requireSystemMfa('EXPORT_AUDIT_LOGS');
    completeSystemMfa('sys-token-1');
    await expect(pending).resolves.toBe('sys-token-1');
    await expect(requireSystemMfa('EXPORT_AUDIT_LOGS')).resolves.toBe('sys-token-1');
    expect(sessionStorage.getItem(SYSTEM_MFA_STORAGE_KEY)).toContain('sys-token-1');
  });

  it('keeps a token at most 30 minutes, or less when the server says so', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const capped = storeSystemMfaToken('DELETE_MATTER', 't1', new Date(now + 60 * 60_000).toISOString(), now);
    expect(capped).toBe(now + 30 * 60_000);
    expect(getSystemMfaToken('DELETE_MATTER', now + 29 * 60_000)).toBe('t1');
    expect(getSystemMfaToken('DELETE_MATTER', now + 30 * 60_000)).toBeNull();

    const early = storeSystemMfaToken('EXPORT_AUDIT_LOGS', 't2', new Date(now + 5 * 60_000).toISOString(), now);
    expect(early).toBe(now + 5 * 60_000);
    expect(getSystemMfaToken('EXPORT_AUDIT_LOGS', now + 6 * 60_000)).toBeNull();
  });

  it('serves a kept token to every operation of its risk class for its 30 minutes, and to no other class', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    storeSystemMfaToken('VIEW_ARCHIVAL_STATS', 'insight', undefined, now);
    // Same class (statistics and migration logs): no second code.
    expect(getSystemMfaToken('REVIEW_MIGRATION_LOGS', now + 29 * 60_000)).toBe('insight');
    // Another class (archiving for real, settings): a code of its own.
    expect(getSystemMfaToken('MFA_SYSTEM_OPERATIONS', now + 60_000)).toBeNull();
    expect(getSystemMfaToken('MFA_USER_MANAGEMENT', now + 60_000)).toBeNull();
    // Past its 30 minutes it serves nothing.
    expect(getSystemMfaToken('REVIEW_MIGRATION_LOGS', now + 30 * 60_000)).toBeNull();
  });

  it('runs a call with the token, and asks again once when the server refuses it', async () => {
    storeSystemMfaToken('EXPORT_AUDIT_LOGS', 'stale');
    const seen: string[] = [];
    const result = runWithSystemMfa('EXPORT_AUDIT_LOGS', async (token) => {
      seen.push(token);
      if (token === 'stale') throw new ApiError({ status: 401, code: 'MFA_REQUIRED', message: MSG.mfaRequired });
      return 'exported';
    });
    await new Promise((r) => setTimeout(r, 0));
    completeSystemMfa('fresh');
    await expect(result).resolves.toBe('exported');
    expect(seen).toEqual(['stale', 'fresh']);
    expect(getSystemMfaToken('EXPORT_AUDIT_LOGS')).toBe('fresh');
  });
});
