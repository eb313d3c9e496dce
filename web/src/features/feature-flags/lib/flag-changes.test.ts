import { describe, expect, it } from 'vitest';
import {
  clearSaved,
  markFailed,
  markSaved,
  markSaving,
  pendingUpdates,
  shownValue,
  stateOf,
  toggleFlag,
  type FlagChanges,
} from './flag-changes';

describe('the local state of a feature flag', () => {
  it('goes original -> changed on a toggle, and back to original when the value equals the server value', () => {
    let c: FlagChanges = {};
    c = toggleFlag(c, 'MFA_USER_MANAGEMENT', true, false);
    expect(stateOf(c, 'MFA_USER_MANAGEMENT')).toBe('changed');
    expect(shownValue(c, 'MFA_USER_MANAGEMENT', false)).toBe(true);
    c = toggleFlag(c, 'MFA_USER_MANAGEMENT', false, false);
    expect(stateOf(c, 'MFA_USER_MANAGEMENT')).toBe('original');
    expect(shownValue(c, 'MFA_USER_MANAGEMENT', false)).toBe(false);
  });

  it('goes changed -> saving -> saved -> original, and sends only the changed flags', () => {
    let c: FlagChanges = {};
    c = toggleFlag(c, 'MFA_RETENTION_POLICIES', false, true);
    c = toggleFlag(c, 'enhanced_user_management', true, false);
    expect(pendingUpdates(c)).toEqual([
      { flagName: 'MFA_RETENTION_POLICIES', enabled: false },
      { flagName: 'enhanced_user_management', enabled: true },
    ]);
    c = markSaving(c);
    expect(stateOf(c, 'MFA_RETENTION_POLICIES')).toBe('saving');
    expect(pendingUpdates(c)).toEqual([]);
    // A toggle while saving changes nothing.
    expect(toggleFlag(c, 'MFA_RETENTION_POLICIES', true, true)).toBe(c);
    c = markSaved(c);
    expect(stateOf(c, 'MFA_RETENTION_POLICIES')).toBe('saved');
    expect(shownValue(c, 'MFA_RETENTION_POLICIES', false)).toBe(false);
    c = clearSaved(c);
    expect(c).toEqual({});
  });

  it('returns to changed with the pending value kept when the save fails', () => {
    let c = toggleFlag({}, 'MFA_SYSTEM_OPERATIONS', true, false);
    c = markFailed(markSaving(c));
    expect(c).toEqual({ MFA_SYSTEM_OPERATIONS: { state: 'changed', pending: true } });
  });
});
