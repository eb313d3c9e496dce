import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, MSG, type SessionUser } from '@strongroom/contracts';
import { ApiError } from '@/lib/api-error';
import { shouldRetrySession } from '../api/get-session';
import { deriveAuthState } from './auth-state';

const user: SessionUser = {
  id: 1,
  email: 'ada@firm.test',
  displayName: 'Ada Lovelace',
  profileId: 'p1',
  organizationId: 'org_1',
  organizationName: 'Lovelace LLP',
  role: 'admin',
  status: 'active',
  permissions: DEFAULT_PERMISSIONS.admin,
  mfaSetupRequired: false,
  mfaEnabled: true,
  mfaPrimaryMethod: 'totp',
};

const err = (status: number, code?: string) => new ApiError({ status, code, message: 'x' });

describe('deriveAuthState', () => {
  it('is loading before the first answer', () => {
    expect(deriveAuthState({ isPending: true, data: undefined, error: null })).toEqual({ status: 'loading' });
  });

  it('is authenticated with a user that has an organization and a profile', () => {
    expect(deriveAuthState({ isPending: false, data: { user, session: null, apiVersion: null }, error: null })).toMatchObject({
      status: 'authenticated',
      user,
    });
  });

  it('needs both organizationId and profileId', () => {
    const state = deriveAuthState({
      isPending: false,
      data: { user: { ...user, profileId: '' }, session: null, apiVersion: null },
      error: null,
    });
    expect(state).toEqual({ status: 'unauthenticated', reason: 'invalid-account', message: MSG.invalidProfile });
  });

  it('is signed out without a session', () => {
    expect(deriveAuthState({ isPending: false, data: null, error: null })).toEqual({ status: 'unauthenticated', reason: 'signed-out' });
  });

  it('maps the session error catalogue', () => {
    const data = { user, session: null, apiVersion: null };
    expect(deriveAuthState({ isPending: false, data, error: err(401, 'SESSION_NOT_FOUND') })).toMatchObject({
      reason: 'signed-out',
      message: MSG.sessionNotFound,
    });
    expect(deriveAuthState({ isPending: false, data: undefined, error: err(403, 'ORGANIZATION_MISSING') })).toMatchObject({
      reason: 'invalid-account',
      message: MSG.organizationMissing,
    });
    expect(deriveAuthState({ isPending: false, data: undefined, error: err(400, 'API_VERSION_MISMATCH') })).toMatchObject({
      reason: 'version-mismatch',
      message: MSG.apiVersionMismatch,
    });
    expect(deriveAuthState({ isPending: false, data: undefined, error: err(0, 'TIMEOUT') })).toMatchObject({
      reason: 'unavailable',
      message: MSG.authTimeout,
    });
    expect(deriveAuthState({ isPending: false, data: undefined, error: err(500) })).toMatchObject({
      reason: 'unavailable',
      message: MSG.authFailed,
    });
  });

  it('keeps the known session through a network blip', () => {
    const data = { user, session: null, apiVersion: null };
    expect(deriveAuthState({ isPending: false, data, error: err(0, 'NETWORK_ERROR') })).toMatchObject({ status: 'authenticated' });
  });
});

describe('shouldRetrySession', () => {
  it('retries at most twice', () => {
    expect(shouldRetrySession(0, err(500))).toBe(true);
    expect(shouldRetrySession(1, err(0, 'NETWORK_ERROR'))).toBe(true);
    expect(shouldRetrySession(2, err(500))).toBe(false);
  });

  it('never retries the non-retryable errors', () => {
    for (const code of ['SESSION_NOT_FOUND', 'UNAUTHENTICATED', 'INVALID_PROFILE', 'ORGANIZATION_MISSING', 'API_VERSION_MISMATCH']) {
      expect(shouldRetrySession(0, err(400, code))).toBe(false);
    }
    expect(shouldRetrySession(0, err(401))).toBe(false);
    expect(shouldRetrySession(0, err(403))).toBe(false);
  });
});
