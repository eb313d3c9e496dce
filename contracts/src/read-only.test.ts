import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS } from './constants.js';
import { matterReadOnlyReason, READ_ONLY_TEXT } from './read-only.js';

const open = { isVaulted: false, status: 'Open', legalHold: false, retentionExpiresAt: null };
const admin = { role: 'admin' as const, permissions: DEFAULT_PERMISSIONS.admin };
const user = { role: 'user' as const, permissions: DEFAULT_PERMISSIONS.user };
const reader = { role: 'user' as const, permissions: { ...DEFAULT_PERMISSIONS.user, canUpload: false } };
const renamer = { role: 'user' as const, permissions: { ...DEFAULT_PERMISSIONS.user, canUpload: false, canRename: true } };
const guest = { role: 'guest' as const, permissions: DEFAULT_PERMISSIONS.guest };
const now = Date.parse('2026-06-01T00:00:00Z');

describe('matterReadOnlyReason', () => {
  it('takes an open matter as changeable for anyone holding a write permission', () => {
    expect(matterReadOnlyReason(open, admin, now)).toBeNull();
    expect(matterReadOnlyReason(open, user, now)).toBeNull();
    expect(matterReadOnlyReason(open, renamer, now)).toBeNull();
  });

  it('is read-only for a person with no write permission, guests included', () => {
    expect(matterReadOnlyReason(open, reader, now)).toBe('READ_ONLY');
    expect(matterReadOnlyReason(open, guest, now)).toBe('READ_ONLY');
    expect(READ_ONLY_TEXT.READ_ONLY).toBe('Actions are disabled for read-only matters');
  });

  it('puts the matter’s own state first: vaulted, then held, then an expired retention', () => {
    expect(matterReadOnlyReason({ ...open, isVaulted: true, status: 'Vaulted', legalHold: true }, reader, now)).toBe('VAULTED');
    expect(matterReadOnlyReason({ ...open, legalHold: true }, reader, now)).toBe('LEGAL_HOLD');
    expect(matterReadOnlyReason({ ...open, retentionExpiresAt: '2026-05-31T23:59:59Z' }, admin, now)).toBe('RETENTION_EXPIRED');
    expect(matterReadOnlyReason({ ...open, retentionExpiresAt: '2026-06-02T00:00:00Z' }, admin, now)).toBeNull();
    expect(READ_ONLY_TEXT.RETENTION_EXPIRED).toBe('Actions are disabled for read-only matters');
    expect(READ_ONLY_TEXT.LEGAL_HOLD).toBe('Actions are disabled due to legal hold');
    expect(READ_ONLY_TEXT.VAULTED).toBe('Actions are disabled for vaulted matters');
  });
});
