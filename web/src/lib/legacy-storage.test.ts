import { beforeEach, describe, expect, it } from 'vitest';
import { isLegacyKey, runLegacyStorageCleanup, STORAGE_VERSION_KEY } from './legacy-storage';

describe('legacy storage cleanup', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('removes the old auth, organization, user and session keys once, then records the version', () => {
    localStorage.setItem('auth-token', 'x');
    localStorage.setItem('sb-abc-auth-token', 'x');
    localStorage.setItem('supabase.auth.token', 'x');
    localStorage.setItem('organizationId', 'org');
    localStorage.setItem('userProfile', '{}');
    localStorage.setItem('session', '{}');
    sessionStorage.setItem('authState', '{}');
    localStorage.setItem('strongroom.theme', 'light');
    localStorage.setItem('upload-resume:matter-1:file-2', '{}');
    localStorage.setItem('user-upload-state', '{}');
    localStorage.setItem('unrelated', 'keep');

    const removed = runLegacyStorageCleanup(localStorage, sessionStorage, 'v2.0.0');

    expect(removed.sort()).toEqual(
      ['auth-token', 'authState', 'organizationId', 'sb-abc-auth-token', 'session', 'supabase.auth.token', 'userProfile'].sort(),
    );
    expect(localStorage.getItem('strongroom.theme')).toBe('light');
    expect(localStorage.getItem('upload-resume:matter-1:file-2')).toBe('{}');
    expect(localStorage.getItem('user-upload-state')).toBe('{}');
    expect(localStorage.getItem('unrelated')).toBe('keep');
    expect(localStorage.getItem(STORAGE_VERSION_KEY)).toBe('v2.0.0');
    expect(sessionStorage.getItem('authState')).toBeNull();
  });

  it('does nothing when this version already ran', () => {
    localStorage.setItem(STORAGE_VERSION_KEY, 'v2.0.0');
    localStorage.setItem('auth-token', 'x');
    expect(runLegacyStorageCleanup(localStorage, sessionStorage, 'v2.0.0')).toEqual([]);
    expect(localStorage.getItem('auth-token')).toBe('x');
  });

  it('runs again for a new storage version', () => {
    localStorage.setItem(STORAGE_VERSION_KEY, 'v1.0.0');
    localStorage.setItem('user', '{}');
    expect(runLegacyStorageCleanup(localStorage, undefined, 'v2.0.0')).toEqual(['user']);
    expect(localStorage.getItem(STORAGE_VERSION_KEY)).toBe('v2.0.0');
  });

  it('never treats our own namespace or saved uploads as legacy', () => {
    expect(isLegacyKey('strongroom.storageVersion')).toBe(false);
    expect(isLegacyKey('strongroom.systemMfa')).toBe(false);
    expect(isLegacyKey('sessionUploadResume')).toBe(false);
    expect(isLegacyKey('Organization')).toBe(true);
    expect(isLegacyKey('theme')).toBe(false);
  });
});
