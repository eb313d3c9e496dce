import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEFAULT_PERMISSIONS, MSG, TEAM_LIMITS, TEAM_MSG, UNDO_MSG, type FeatureFlagName } from '@strongroom/contracts';
import { createTestApp, Client, nextTotp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createMatter,
  invitationToken,
  newOrganization,
  newOrganizationWithTotp,
  ok,
  PASSWORD,
  systemMfaToken,
  uploadFile,
  type Member,
  type TotpMember,
} from '../../../test/factories.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.shutdown());

// Each administrator may make a limited number of user-management calls a minute; the tests start afresh.
beforeEach(async () => {
  await t.ctx.db.deleteFrom('authThrottle').where('key', 'like', 'team-admin:%').execute();
});

async function setFlag(organizationId: string, flagName: FeatureFlagName, enabled: boolean) {
  const r = await t.ctx.db
    .updateTable('featureFlags')
    .set({ enabled })
    .where('organizationId', '=', organizationId)
    .where('flagName', '=', flagName)
    .execute();
  if (Number(r[0]?.numUpdatedRows ?? 0) === 0)
    await t.ctx.db.insertInto('featureFlags').values({ organizationId, flagName, enabled }).execute();
}

async function publicIdOf(userId: number): Promise<string> {
  const row = await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.publicId;
}

async function userRow(userId: number) {
  return t.ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
}

const stamp = () => new Date().toISOString();

function manage(c: Client, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return c.post('/_api/settings/users/manage', { updatedBy: 'Ada Admin', timestamp: stamp(), ...body }, headers);
}

/** An organization whose admin works without step-up (MFA_USER_MANAGEMENT off), with a user and a guest. */
async function firm(name = 'Team LLP') {
  const admin = await newOrganization(t, name);
  await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', false);
  const user = await addMember(t, admin.organizationId, 'user', {}, 'Uma User');
  const guest = await addMember(t, admin.organizationId, 'guest', {}, 'Gus Guest');
  return {
    admin,
    user,
    guest,
    userId: await publicIdOf(user.userId),
    guestId: await publicIdOf(guest.userId),
    adminId: await publicIdOf(admin.userId),
  };
}

describe('the team list', () => {
  it('shows managers every user with the fields the drawer needs, and pending invitations', async () => {
    const f = await firm();
    ok(await f.admin.client.post('/_api/settings/users/invite', { email: 'new.hire@firm.test', role: 'user' }));
    const list = ok(await f.admin.client.get('/_api/settings/users'));
    expect(list).toMatchObject({ canManage: true, canInvite: true, invitableRoles: ['admin', 'user', 'guest'] });
    expect(list.users).toHaveLength(3);
    const uma = list.users.find((u: { id: string }) => u.id === f.userId);
    expect(uma).toMatchObject({
      fullName: 'Uma User',
      email: f.user.email,
      role: 'user',
      status: 'active',
      permissions: DEFAULT_PERMISSIONS.user,
      mfaEnabled: true,
      mfaMethod: 'email',
      version: 1,
      updatedBy: null,
      organizationId: f.admin.organizationId,
      guestMatterCount: 0,
    });
    expect(uma.lastSignInAt).not.toBeNull();
    expect(list.invitations).toEqual([
      expect.objectContaining({ email: 'new.hire@firm.test', role: 'user', invitedBy: { name: 'Ada Admin' } }),
    ]);
  });

  it('is read-only for people who may only invite, and refused to everyone else', async () => {
    const f = await firm();
    const inviter = await addMember(t, f.admin.organizationId, 'user', { canInviteUsers: true });
    const list = ok(await inviter.client.get('/_api/settings/users'));
    expect(list).toMatchObject({ canManage: false, canInvite: true, invitableRoles: ['guest'] });
    for (const c of [f.user.client, f.guest.client]) {
      const r = await c.get('/_api/settings/users');
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ code: 'PERMISSION_ERROR', error: TEAM_MSG.noPermission });
    }
  });
});

describe('validation', () => {
  let f: Awaited<ReturnType<typeof firm>>;
  beforeAll(async () => {
    f = await firm();
  });

  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    [
      'manage',
      '/_api/settings/users/manage',
      { userId: 'nope', changes: { isActive: true }, updatedBy: 'A', timestamp: stamp() },
      TEAM_MSG.invalidUserId,
    ],
    ['manage', '/_api/settings/users/manage', { changes: { isActive: true }, updatedBy: 'A', timestamp: stamp() }, TEAM_MSG.userIdRequired],
    ['manage', '/_api/settings/users/manage', { userId: '@', changes: {}, updatedBy: 'A', timestamp: stamp() }, TEAM_MSG.atLeastOneChange],
    [
      'manage',
      '/_api/settings/users/manage',
      { userId: '@', changes: { isActive: true }, updatedBy: '', timestamp: stamp() },
      TEAM_MSG.updatedByRequired,
    ],
    [
      'manage',
      '/_api/settings/users/manage',
      { userId: '@', changes: { isActive: true }, updatedBy: 'A', timestamp: stamp(), version: -1 },
      TEAM_MSG.versionNonNegative,
    ],
    [
      'manage',
      '/_api/settings/users/manage',
      { userId: '@', changes: { isActive: true }, updatedBy: 'A', timestamp: stamp(), version: 1.5 },
      TEAM_MSG.versionNonNegative,
    ],
    [
      'manage',
      '/_api/settings/users/manage',
      { userId: '@', changes: { isActive: true }, updatedBy: 'A', timestamp: 'yesterday' },
      TEAM_MSG.invalidTimestamp,
    ],
    [
      'manage',
      '/_api/settings/users/manage',
      { userId: '@', changes: { isActive: true }, updatedBy: 'A', timestamp: stamp(), reason: 'short' },
      TEAM_MSG.auditReasonMin,
    ],
    [
      'manage',
      '/_api/settings/users/manage',
      { userId: '@', changes: { role: 'owner' }, updatedBy: 'A', timestamp: stamp() },
      MSG.inviteRoleInvalid,
    ],
    ['role', '/_api/settings/users/role', { userId: 'x', newRole: 'user', reason: 'Promotion after review' }, TEAM_MSG.invalidUserId],
    ['role', '/_api/settings/users/role', { userId: '@', newRole: 'user', reason: 'too short' }, TEAM_MSG.roleReasonMin],
    ['role', '/_api/settings/users/role', { userId: '@', newRole: 'user', reason: '   padded   ' }, TEAM_MSG.roleReasonMin],
    ['reset-mfa', '/_api/settings/users/reset-mfa', { userId: '@', reason: 'lost it', mfaToken: '123456' }, TEAM_MSG.auditReasonMin],
    ['reset-mfa', '/_api/settings/users/reset-mfa', { userId: '@', reason: '          ', mfaToken: '123456' }, TEAM_MSG.auditReasonMin],
    ['reset-mfa', '/_api/settings/users/reset-mfa', { userId: '@', reason: 'Phone lost on a trip' }, TEAM_MSG.mfaTokenRequired],
    [
      'reset-mfa',
      '/_api/settings/users/reset-mfa',
      { userId: '@', reason: 'Phone lost on a trip', mfaToken: '' },
      TEAM_MSG.mfaTokenRequired,
    ],
    ['permissions', '/_api/settings/users/permissions', { userId: '@', permissions: {} }, TEAM_MSG.permissionsRequired],
    ['deactivate', '/_api/settings/users/deactivate', {}, TEAM_MSG.userIdRequired],
    ['reactivate', '/_api/settings/users/reactivate', { userId: 12 }, TEAM_MSG.invalidUserId],
    ['resend', '/_api/settings/users/invitations/resend', { invitationId: 'x' }, TEAM_MSG.invalidInvitationId],
    ['revoke', '/_api/settings/users/invitations/revoke', {}, TEAM_MSG.invitationIdRequired],
    ['grant', '/_api/settings/guest-access/grant', { userId: '@', matterId: 'm' }, TEAM_MSG.invalidMatterId],
  ];

  it.each(cases)('%s answers 400 with the text of the rule broken', async (_name, url, body, message) => {
    const withId = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === '@' ? f.userId : v]));
    const r = await f.admin.client.post(url, withId);
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('VALIDATION_ERROR');
    expect(r.json().error).toBe(message);
  });

  it('refuses unknown fields, in the body and in changes', async () => {
    const r = await manage(f.admin.client, { userId: f.userId, changes: { isActive: true, colour: 'red' } });
    expect(r.statusCode).toBe(400);
    const r2 = await f.admin.client.post('/_api/settings/users/deactivate', { userId: f.userId, extra: 1 });
    expect(r2.statusCode).toBe(400);
    expect(r2.json().error).toBe(MSG.unknownFields(['extra']));
  });
});

describe('who may manage whom', () => {
  it('lets admins change users; refuses users, guests and people who may only invite; 404 for another organization', async () => {
    const f = await firm();
    const other = await firm('Other LLP');
    const inviter = await addMember(t, f.admin.organizationId, 'user', { canInviteUsers: true });
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/_api/settings/users/permissions', { permissions: { canDelete: true } }],
      ['/_api/settings/users/role', { newRole: 'guest', reason: 'Moved to external counsel' }],
      ['/_api/settings/users/deactivate', {}],
      ['/_api/settings/users/reactivate', {}],
      ['/_api/settings/users/manage', { changes: { permissions: { canRename: true } }, updatedBy: 'A', timestamp: stamp() }],
      ['/_api/settings/users/reset-mfa', { reason: 'Phone lost on a trip', mfaToken: '123456' }],
    ];
    for (const [url, body] of calls) {
      for (const c of [f.user.client, f.guest.client, inviter.client]) {
        const r = await c.post(url, { userId: f.userId, ...body });
        expect(r.statusCode, `${url} by a non-manager`).toBe(403);
        expect(r.json()).toMatchObject({ code: 'PERMISSION_ERROR' });
      }
      const foreign = await f.admin.client.post(url, { userId: other.userId, ...body });
      expect(foreign.statusCode, `${url} on another organization's user`).toBe(404);
      expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND', error: TEAM_MSG.userNotFound });
      const missing = await f.admin.client.post(url, { userId: '00000000-0000-4000-8000-000000000000', ...body });
      expect(missing.statusCode).toBe(404);
    }
    // The other organization's user is untouched.
    expect((await userRow(other.user.userId)).permissions).toEqual(DEFAULT_PERMISSIONS.user);
  });

  it('a user holding canManageUsers manages users and guests but never an admin, nor makes one', async () => {
    const f = await firm();
    const manager = await addMember(t, f.admin.organizationId, 'user', { canManageUsers: true }, 'Max Manager');
    const r = ok(await manager.client.post('/_api/settings/users/permissions', { userId: f.userId, permissions: { canRename: true } }));
    expect(r).toMatchObject({ success: true, message: TEAM_MSG.permissionsUpdated, user: { permissions: { canRename: true } } });
    const promote = await manager.client.post('/_api/settings/users/role', {
      userId: f.userId,
      newRole: 'admin',
      reason: 'Make a partner admin',
    });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().error).toBe(TEAM_MSG.adminOnlyForAdmins);
    const onAdmin = await manager.client.post('/_api/settings/users/deactivate', { userId: f.adminId });
    expect(onAdmin.statusCode).toBe(403);
    expect(onAdmin.json().error).toBe(TEAM_MSG.adminOnlyForAdmins);
    const reset = await manager.client.post('/_api/settings/users/reset-mfa', {
      userId: f.userId,
      reason: 'Phone lost on a trip',
      mfaToken: '123456',
    });
    expect(reset.statusCode).toBe(403);
    expect(reset.json().error).toBe(TEAM_MSG.resetMfaAdminOnly);
  });
});

describe('changes', () => {
  it('a role change resets the permissions to the new role, unless permissions come with it; audited with the reason', async () => {
    const f = await firm();
    ok(await f.admin.client.post('/_api/settings/users/permissions', { userId: f.userId, permissions: { canDelete: true } }));
    const r = ok(
      await f.admin.client.post('/_api/settings/users/role', { userId: f.userId, newRole: 'admin', reason: 'Made a partner this week' }),
    );
    expect(r).toMatchObject({ message: TEAM_MSG.roleChanged, user: { role: 'admin', permissions: DEFAULT_PERMISSIONS.admin, version: 3 } });
    expect(r.updatedUser).toEqual({ userId: f.userId, version: 3 });
    expect(r.undoId).toEqual(expect.any(String));
    const m = ok(
      await manage(f.admin.client, {
        userId: f.userId,
        version: 3,
        changes: { role: 'user', permissions: { canVault: true } },
        reason: 'Back to associate, keeps vaulting',
      }),
    );
    expect(m.message).toBe(TEAM_MSG.updated('Uma User'));
    expect(m.user.permissions).toEqual({ ...DEFAULT_PERMISSIONS.user, canVault: true });
    expect(m.user.updatedBy).toEqual({ name: 'Ada Admin' });
    const audit = (await auditActions(t, f.admin.organizationId)).filter((a) => a.targetId === f.userId);
    expect(audit.map((a) => a.action)).toEqual(['USER_UPDATE_PERMISSIONS', 'USER_ROLE_CHANGE', 'USER_ROLE_CHANGE']);
    expect(audit[1]!.details).toMatchObject({ from: 'user', to: 'admin', reason: 'Made a partner this week' });
    expect(audit[2]!.details).toMatchObject({ reason: 'Back to associate, keeps vaulting', permissions: { canVault: true } });
  });

  it('a save against an older version answers CONFLICT_ERROR with who changed the user and when', async () => {
    const f = await firm();
    const second = await addMember(t, f.admin.organizationId, 'admin', {}, 'Bea Second');
    ok(await manage(second.client, { userId: f.userId, version: 1, changes: { permissions: { canRename: true } } }));
    const stale = await manage(f.admin.client, { userId: f.userId, version: 1, changes: { permissions: { canDelete: true } } });
    expect(stale.statusCode).toBe(409);
    const body = stale.json();
    expect(body).toMatchObject({
      code: 'CONFLICT_ERROR',
      error: TEAM_MSG.conflict,
      success: false,
      conflictData: { updatedBy: { name: 'Bea Second' }, currentVersion: 2 },
      details: { reason: 'VERSION_MISMATCH' },
    });
    expect(new Date(body.conflictData.updatedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await userRow(f.user.userId)).permissions.canDelete).toBe(false);
  });

  it('keeps the last active admin: no demotion, no loss of canManageUsers, no self-deactivation', async () => {
    const f = await firm();
    const demote = await f.admin.client.post('/_api/settings/users/role', {
      userId: f.adminId,
      newRole: 'user',
      reason: 'Stepping down now',
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ code: 'LAST_ADMIN_ERROR', error: TEAM_MSG.operationBlocked, message: TEAM_MSG.lastAdmin });
    const strip = await f.admin.client.post('/_api/settings/users/permissions', {
      userId: f.adminId,
      permissions: { canManageUsers: false },
    });
    expect(strip.json().code).toBe('LAST_ADMIN_ERROR');
    const self = await f.admin.client.post('/_api/settings/users/deactivate', { userId: f.adminId });
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toBe(TEAM_MSG.cannotDeactivateSelf);
    // With a second admin, one may step down.
    const second = await addMember(t, f.admin.organizationId, 'admin');
    ok(await f.admin.client.post('/_api/settings/users/role', { userId: f.adminId, newRole: 'user', reason: 'Stepping down now' }));
    // ... and the remaining one may not.
    const last = await second.client.post('/_api/settings/users/permissions', {
      userId: await publicIdOf(second.userId),
      permissions: { canManageUsers: false },
    });
    expect(last.json().code).toBe('LAST_ADMIN_ERROR');
  });

  it('deactivation ends every session of the user at once and blocks sign-in; reactivation restores access', async () => {
    const f = await firm();
    expect((await f.user.client.get('/_api/auth/session')).statusCode).toBe(200);
    const r = ok(await f.admin.client.post('/_api/settings/users/deactivate', { userId: f.userId, reason: 'Left the firm today' }));
    expect(r).toMatchObject({ message: TEAM_MSG.deactivated, user: { status: 'deactivated' } });
    const next = await f.user.client.get('/_api/auth/session');
    expect(next.statusCode).toBe(401);
    const login = await new Client(t.app).post('/_api/auth/login_with_password', { email: f.user.email, password: PASSWORD });
    expect(login.statusCode).toBe(401);
    const audit = (await auditActions(t, f.admin.organizationId)).find((a) => a.action === 'USER_REMOVE');
    expect(audit?.details).toMatchObject({ reason: 'Left the firm today', sessionsEnded: 1 });
    ok(await f.admin.client.post('/_api/settings/users/reactivate', { userId: f.userId }));
    const again = await new Client(t.app).post('/_api/auth/login_with_password', { email: f.user.email, password: PASSWORD });
    expect(again.statusCode).toBe(200);
    expect((await auditActions(t, f.admin.organizationId)).some((a) => a.action === 'USER_REACTIVATE')).toBe(true);
  });

  it('answers success without a new version or undo offer when nothing changes', async () => {
    const f = await firm();
    const r = ok(await f.admin.client.post('/_api/settings/users/reactivate', { userId: f.userId }));
    expect(r.user.version).toBe(1);
    expect(r.undoId).toBeUndefined();
  });

  it('limits each administrator to a number of user-management calls a minute, with Retry-After', async () => {
    const f = await firm();
    const n = TEAM_LIMITS.rateLimitMax + 5;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        f.admin.client.post('/_api/settings/users/permissions', { userId: f.userId, permissions: { canRename: i % 2 === 0 } }),
      ),
    );
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(limited).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(TEAM_LIMITS.rateLimitMax);
    expect(limited[0]!.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', error: TEAM_MSG.tooManyRequests });
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // Another administrator is not held back.
    const second = await addMember(t, f.admin.organizationId, 'admin');
    ok(await second.client.post('/_api/settings/users/permissions', { userId: f.userId, permissions: { canDelete: true } }));
  });
});

describe('undo', () => {
  it('restores the previous role, status and permissions within 5 minutes, once', async () => {
    const f = await firm();
    const r = ok(
      await f.admin.client.post('/_api/settings/users/role', { userId: f.userId, newRole: 'guest', reason: 'External counsel now' }),
    );
    const u = ok(await f.admin.client.post('/_api/undo', { undoId: r.undoId }));
    expect(u).toMatchObject({ success: true, message: UNDO_MSG.success, kind: 'user.update', targetId: f.userId, matterId: null });
    const row = await userRow(f.user.userId);
    expect(row).toMatchObject({ role: 'user', permissions: DEFAULT_PERMISSIONS.user, version: 3 });
    const twice = await f.admin.client.post('/_api/undo', { undoId: r.undoId });
    expect(twice.statusCode).toBe(410);
    expect(twice.json().error).toBe(UNDO_MSG.unavailable);
    const undoEntry = (await auditActions(t, f.admin.organizationId)).find((a) => a.action === 'UNDO_USER_UPDATE');
    expect(undoEntry?.details).toMatchObject({ undoId: r.undoId, userId: f.userId, changes: { role: { from: 'guest', to: 'user' } } });
  });

  it('an undone deactivation lets the user sign in again', async () => {
    const f = await firm();
    const r = ok(await f.admin.client.post('/_api/settings/users/deactivate', { userId: f.userId }));
    ok(await f.admin.client.post('/_api/undo', { undoId: r.undoId }));
    expect((await userRow(f.user.userId)).isActive).toBe(true);
  });

  it('fails once the entry expired or the user changed since', async () => {
    const f = await firm();
    const r = ok(await f.admin.client.post('/_api/settings/users/permissions', { userId: f.userId, permissions: { canDelete: true } }));
    await t.ctx.db
      .updateTable('undoEntries')
      .set({ expiresAt: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', r.undoId)
      .execute();
    const expired = await f.admin.client.post('/_api/undo', { undoId: r.undoId });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ error: UNDO_MSG.unavailable, details: { reason: 'EXPIRED' } });
    const r2 = ok(await f.admin.client.post('/_api/settings/users/permissions', { userId: f.userId, permissions: { canRename: true } }));
    ok(await f.admin.client.post('/_api/settings/users/permissions', { userId: f.userId, permissions: { canVault: true } }));
    const changed = await f.admin.client.post('/_api/undo', { undoId: r2.undoId });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ error: UNDO_MSG.unavailable, details: { reason: 'CHANGED' } });
    expect((await userRow(f.user.userId)).permissions).toMatchObject({ canRename: true, canVault: true });
  });

  it('is refused to the person who made the change once they no longer manage users', async () => {
    const f = await firm();
    const second = await addMember(t, f.admin.organizationId, 'admin');
    const r = ok(await f.admin.client.post('/_api/settings/users/permissions', { userId: f.userId, permissions: { canDelete: true } }));
    ok(await second.client.post('/_api/settings/users/permissions', { userId: f.adminId, permissions: { canManageUsers: false } }));
    const undo = await f.admin.client.post('/_api/undo', { undoId: r.undoId });
    expect(undo.statusCode).toBe(403);
    expect((await userRow(f.user.userId)).permissions.canDelete).toBe(true);
    // Nor may anyone else use it.
    expect((await second.client.post('/_api/undo', { undoId: r.undoId })).statusCode).toBe(403);
  });
});

describe('step-up MFA for user management', () => {
  let admin: TotpMember;
  let userId: string;
  let user: Member;
  // One authenticator code buys a token of the people class for 30 minutes (a code cannot be used twice).
  let peopleToken: string;
  beforeAll(async () => {
    admin = await newOrganizationWithTotp(t, 'Strict LLP');
    user = await addMember(t, admin.organizationId, 'user', {}, 'Uma User');
    userId = await publicIdOf(user.userId);
    peopleToken = await systemMfaToken(admin, 'MFA_USER_MANAGEMENT');
  });

  const guarded: Array<[string, () => Record<string, unknown>]> = [
    ['/_api/settings/users/permissions', () => ({ userId, permissions: { canDelete: true } })],
    ['/_api/settings/users/role', () => ({ userId, newRole: 'user', reason: 'Confirming the role' })],
    ['/_api/settings/users/deactivate', () => ({ userId })],
    ['/_api/settings/users/reactivate', () => ({ userId })],
    ['/_api/settings/users/manage', () => ({ userId, changes: { permissions: { canRename: true } }, updatedBy: 'A', timestamp: stamp() })],
    ['/_api/settings/users/invite', () => ({ email: `invitee${Math.random().toString(36).slice(2, 8)}@firm.test`, role: 'guest' })],
  ];

  it.each(guarded)(
    '%s asks for a code while MFA_USER_MANAGEMENT is on, and accepts a system token of the people class',
    async (url, body) => {
      await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', true);
      const first = await admin.client.post(url, body());
      expect(first.statusCode).toBe(401);
      expect(first.json()).toMatchObject({ code: 'MFA_REQUIRED', mfaRequired: true, details: { operation: 'MFA_USER_MANAGEMENT' } });
      ok(await admin.client.post(url, body(), { 'x-mfa-token': peopleToken }));
      const wrong = await admin.client.post(url, { ...body(), mfaToken: '0'.repeat(43) });
      expect(wrong.json().code).toBe('MFA_INVALID');
    },
  );

  it.each(guarded)('%s needs no code while MFA_USER_MANAGEMENT is off', async (url, body) => {
    await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', false);
    ok(await admin.client.post(url, body()));
    await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', true);
  });

  it('sharing a matter with a guest asks for a code while MFA_USER_MANAGEMENT is on; stopping it never does', async () => {
    await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', true);
    const guest = await addMember(t, admin.organizationId, 'guest');
    const guestId = await publicIdOf(guest.userId);
    const matter = await createMatter(admin.client);
    const first = await admin.client.post('/_api/settings/guest-access/grant', { userId: guestId, matterId: matter.id });
    expect(first.statusCode).toBe(401);
    expect(first.json().code).toBe('MFA_REQUIRED');
    ok(
      await admin.client.post(
        '/_api/settings/guest-access/grant',
        { userId: guestId, matterId: matter.id },
        { 'x-mfa-token': peopleToken },
      ),
    );
    ok(await admin.client.post('/_api/settings/guest-access/revoke', { userId: guestId, matterId: matter.id }));
    // A refusal comes before the code: not a guest.
    const notGuest = await admin.client.post('/_api/settings/guest-access/grant', { userId, matterId: matter.id });
    expect(notGuest.statusCode).toBe(400);
    await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', false);
    ok(await admin.client.post('/_api/settings/guest-access/grant', { userId: guestId, matterId: matter.id }));
    await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', true);
  });

  it('checks business rules before asking for a code: the last admin, a stale version, an address already invited', async () => {
    await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', true);
    const adminId = await publicIdOf(admin.userId);
    const last = await admin.client.post('/_api/settings/users/role', { userId: adminId, newRole: 'user', reason: 'Stepping down now' });
    expect(last.json().code).toBe('LAST_ADMIN_ERROR');
    const stale = await manage(admin.client, { userId, version: 0, changes: { isActive: true } });
    expect(stale.json().code).toBe('CONFLICT_ERROR');
    const email = `pending${Math.random().toString(36).slice(2, 8)}@firm.test`;
    ok(await admin.client.post('/_api/settings/users/invite', { email, role: 'user', mfaToken: peopleToken }));
    const again = await admin.client.post('/_api/settings/users/invite', { email, role: 'user' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT_ERROR', error: TEAM_MSG.alreadyInvited, details: { reason: 'ALREADY_INVITED' } });
  });

  it('reset-mfa always needs a fresh code, removes the authenticator and falls back to email, audited with the reason', async () => {
    await setFlag(admin.organizationId, 'MFA_USER_MANAGEMENT', false);
    // A second admin with an authenticator loses their phone.
    const lost = await newOrganizationWithTotp(t, 'Lost Phone LLP');
    await setFlag(lost.organizationId, 'MFA_USER_MANAGEMENT', false);
    const colleague = await addMember(t, lost.organizationId, 'user', {}, 'Cora Colleague');
    const colleagueId = await publicIdOf(colleague.userId);
    await t.ctx.db
      .updateTable('users')
      .set({ mfaPrimaryMethod: 'totp', totpSecret: 'sealed-secret' })
      .where('id', '=', colleague.userId)
      .execute();
    await t.ctx.db
      .insertInto('mfaRecoveryCodes')
      .values({ organizationId: lost.organizationId, userId: colleague.userId, codeHash: 'hash-of-a-recovery-code' })
      .execute();
    const noCode = await lost.client.post('/_api/settings/users/reset-mfa', {
      userId: colleagueId,
      reason: 'Phone lost on a trip',
      mfaToken: 'x',
    });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json().code).toBe('MFA_INVALID');
    const r = ok(
      await lost.client.post('/_api/settings/users/reset-mfa', {
        userId: colleagueId,
        reason: '  Phone lost on a trip  ',
        mfaToken: nextTotp(lost.totpSecret),
      }),
    );
    expect(r).toMatchObject({
      success: true,
      message: TEAM_MSG.mfaReset('Cora Colleague'),
      user: { mfaEnabled: true, mfaMethod: 'email' },
    });
    expect(await userRow(colleague.userId)).toMatchObject({ totpSecret: null, mfaPrimaryMethod: 'email' });
    expect(await t.ctx.db.selectFrom('mfaRecoveryCodes').select('id').where('userId', '=', colleague.userId).execute()).toEqual([]);
    const audit = (await auditActions(t, lost.organizationId)).find((a) => a.action === 'MFA_RESET');
    expect(audit?.details).toMatchObject({ reason: 'Phone lost on a trip', previousMethod: 'totp', method: 'email' });
    // Not for a deactivated user.
    ok(await lost.client.post('/_api/settings/users/deactivate', { userId: colleagueId }));
    const gone = await lost.client.post('/_api/settings/users/reset-mfa', {
      userId: colleagueId,
      reason: 'Phone lost on a trip',
      mfaToken: '123456',
    });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().error).toBe(TEAM_MSG.resetMfaNotPossible);
  });
});

describe('invitations from the Team list', () => {
  it('resends with a new link (the old one stops working) and revokes; both audited', async () => {
    const f = await firm();
    const email = `resend${Math.random().toString(36).slice(2, 8)}@firm.test`;
    const before = t.sink.messages.length;
    const inv = ok(await f.admin.client.post('/_api/settings/users/invite', { email, role: 'user' })).invitation;
    const oldToken = await invitationToken(t, email, before);
    const mid = t.sink.messages.length;
    const resent = ok(await f.admin.client.post('/_api/settings/users/invitations/resend', { invitationId: inv.id }));
    expect(resent).toMatchObject({ message: TEAM_MSG.invitationResent(email), invitation: { id: inv.id, email } });
    const newToken = await invitationToken(t, email, mid);
    expect(newToken).not.toBe(oldToken);
    expect((await new Client(t.app).post('/_api/auth/invitation-verify', { token: oldToken })).statusCode).toBe(404);
    expect((await new Client(t.app).post('/_api/auth/invitation-verify', { token: newToken })).statusCode).toBe(200);
    ok(await f.admin.client.post('/_api/settings/users/invitations/revoke', { invitationId: inv.id }));
    expect((await new Client(t.app).post('/_api/auth/invitation-verify', { token: newToken })).statusCode).toBe(404);
    expect(ok(await f.admin.client.get('/_api/settings/users')).invitations).toEqual([]);
    const again = await f.admin.client.post('/_api/settings/users/invitations/revoke', { invitationId: inv.id });
    expect(again.statusCode).toBe(404);
    const actions = (await auditActions(t, f.admin.organizationId)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['INVITATION_RESENT', 'INVITATION_REVOKED']));
    // After a revoke the address may be invited again.
    ok(await f.admin.client.post('/_api/settings/users/invite', { email, role: 'user' }));
  });

  it('a user who may only invite invites guests, resends and revokes guest invitations only; other organizations see 404', async () => {
    const f = await firm();
    const other = await firm('Elsewhere LLP');
    const inviter = await addMember(t, f.admin.organizationId, 'user', { canInviteUsers: true });
    const asUser = await inviter.client.post('/_api/settings/users/invite', { email: 'someone@firm.test', role: 'user' });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().error).toBe(TEAM_MSG.inviteGuestsOnly);
    ok(
      await inviter.client.post('/_api/settings/users/invite', {
        email: `guest${Math.random().toString(36).slice(2, 8)}@firm.test`,
        role: 'guest',
      }),
    );
    const adminInv = ok(
      await f.admin.client.post('/_api/settings/users/invite', {
        email: `assoc${Math.random().toString(36).slice(2, 8)}@firm.test`,
        role: 'user',
      }),
    );
    const revoke = await inviter.client.post('/_api/settings/users/invitations/revoke', { invitationId: adminInv.invitation.id });
    expect(revoke.statusCode).toBe(403);
    const foreign = await other.admin.client.post('/_api/settings/users/invitations/revoke', { invitationId: adminInv.invitation.id });
    expect(foreign.statusCode).toBe(404);
    expect((await f.user.client.post('/_api/settings/users/invitations/resend', { invitationId: adminInv.invitation.id })).statusCode).toBe(
      403,
    );
  });
});

describe('guest access', () => {
  it('admins share matters with guests and stop sharing them, audited; nobody else may; other organizations answer 404', async () => {
    const f = await firm();
    const other = await firm('Foreign LLP');
    const matter = await createMatter(f.admin.client);
    const foreignMatter = await createMatter(other.admin.client);
    const g = ok(await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: matter.id }));
    expect(g).toMatchObject({
      message: TEAM_MSG.guestGranted,
      grants: [{ userId: f.guestId, matterId: matter.id, grantedBy: { name: 'Ada Admin' } }],
    });
    // Sharing it again changes nothing.
    expect(
      ok(await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: matter.id })).grants,
    ).toHaveLength(1);
    expect(ok(await f.admin.client.get(`/_api/settings/guest-access?userId=${f.guestId}`)).grants).toHaveLength(1);
    expect(
      ok(await f.admin.client.get('/_api/settings/users')).users.find((u: { id: string }) => u.id === f.guestId).guestMatterCount,
    ).toBe(1);
    const notGuest = await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.userId, matterId: matter.id });
    expect(notGuest.statusCode).toBe(400);
    expect(notGuest.json().error).toBe(TEAM_MSG.guestOnly);
    expect(
      (await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: foreignMatter.id })).statusCode,
    ).toBe(404);
    expect(
      (await f.admin.client.post('/_api/settings/guest-access/grant', { userId: other.guestId, matterId: matter.id })).statusCode,
    ).toBe(404);
    for (const c of [f.user.client, f.guest.client]) {
      expect((await c.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: matter.id })).statusCode).toBe(403);
      expect((await c.get(`/_api/settings/guest-access?userId=${f.guestId}`)).statusCode).toBe(403);
    }
    const r = ok(await f.admin.client.post('/_api/settings/guest-access/revoke', { userId: f.guestId, matterId: matter.id }));
    expect(r).toMatchObject({ message: TEAM_MSG.guestRevoked, grants: [] });
    const missing = await f.admin.client.post('/_api/settings/guest-access/revoke', { userId: f.guestId, matterId: matter.id });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(TEAM_MSG.guestGrantNotFound);
    const actions = (await auditActions(t, f.admin.organizationId)).map((a) => a.action);
    expect(actions.filter((a) => a.startsWith('GUEST_ACCESS'))).toEqual(['GUEST_ACCESS_GRANTED', 'GUEST_ACCESS_REVOKED']);
  });

  it('a guest reads only the matters shared with them (list, detail, suggestions, download) and changes nothing', async () => {
    const f = await firm('Guest Reads LLP');
    const shared = await createMatter(f.admin.client, { clientName: 'Shared Client Ltd', responsibleAttorney: 'Sam Shared' });
    const hidden = await createMatter(f.admin.client, { clientName: 'Hidden Client Ltd', responsibleAttorney: 'Hal Hidden' });
    const file = await uploadFile(t, f.admin.client, shared.id, 'brief.pdf', Buffer.from('%PDF-1.4 shared brief'));
    const hiddenFile = await uploadFile(t, f.admin.client, hidden.id, 'secret.pdf', Buffer.from('%PDF-1.4 hidden memo'));
    const g = f.guest.client;
    // Before any grant: nothing listed, every matter Access denied.
    expect(ok(await g.get('/_api/matters/list')).matters).toEqual([]);
    expect((await g.get(`/_api/matters/detail?matterId=${shared.id}`)).statusCode).toBe(403);
    ok(await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: shared.id }));
    const list = ok(await g.get('/_api/matters/list'));
    expect(list.matters.map((m: { id: string }) => m.id)).toEqual([shared.id]);
    expect(list.totalCount).toBe(1);
    const detail = ok(await g.get(`/_api/matters/detail?matterId=${shared.id}`));
    expect(detail.nodes.map((n: { name: string }) => n.name)).toEqual(['brief.pdf']);
    const denied = await g.get(`/_api/matters/detail?matterId=${hidden.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'PERMISSION_ERROR', error: MSG.accessDenied('guest') });
    const clients = ok(await g.get('/_api/matters/clients/suggestions?query=Cl&limit=10'));
    expect(clients.map((c: { clientName: string }) => c.clientName)).toEqual(['Shared Client Ltd']);
    const lawyers = ok(await g.get('/_api/matters/lawyers/suggestions?query=Hal&limit=10'));
    expect(lawyers).toEqual([]);
    // The grant decides a guest's download (a 'download' grant by default), whatever canRetrieve says; a file of a
    // matter not shared with them answers 404 (guest-downloads.test.ts has the rule in full).
    expect(ok(await g.get(`/_api/nodes/download-url?nodeId=${file.id}`)).url).toEqual(expect.any(String));
    const hiddenDownload = await g.get(`/_api/nodes/download-url?nodeId=${hiddenFile.id}`);
    expect(hiddenDownload.statusCode).toBe(404);
    // Writes are refused even in the shared matter, even with write permissions switched on.
    ok(
      await f.admin.client.post('/_api/settings/users/permissions', {
        userId: f.guestId,
        permissions: { canUpload: true, canRename: true },
      }),
    );
    const writes = [
      await g.post('/_api/nodes/create', { matterId: shared.id, parentId: null, folderName: 'Guest folder' }),
      await g.post('/_api/nodes/rename', { nodeId: file.id, newName: 'renamed.pdf' }),
      await g.post('/_api/matters/update', { matterId: shared.id, expectedVersion: shared.version, matterName: 'Taken over' }),
      await g.post('/_api/upload/presigned', {
        fileName: 'x.pdf',
        fileType: 'application/pdf',
        matterId: shared.id,
        parentId: null,
        fileSize: 10,
      }),
    ];
    expect(writes.map((w) => w.statusCode)).toEqual([403, 403, 403, 403]);
    // Another organization's guest sees none of it.
    const other = await firm('Guest Elsewhere LLP');
    expect((await other.guest.client.get(`/_api/matters/detail?matterId=${shared.id}`)).statusCode).toBe(404);
    // Revoked: gone again.
    ok(await f.admin.client.post('/_api/settings/guest-access/revoke', { userId: f.guestId, matterId: shared.id }));
    expect(ok(await g.get('/_api/matters/list')).matters).toEqual([]);
    expect((await g.get(`/_api/nodes/download-url?nodeId=${file.id}`)).statusCode).toBe(404);
  });

  it('a guest made a user loses the shared matters', async () => {
    const f = await firm();
    const matter = await createMatter(f.admin.client);
    ok(await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: matter.id }));
    ok(await f.admin.client.post('/_api/settings/users/role', { userId: f.guestId, newRole: 'user', reason: 'Joined the firm as staff' }));
    const rows = await t.ctx.db.selectFrom('guestMatterGrants').selectAll().where('userId', '=', f.guest.userId).execute();
    expect(rows).toEqual([]);
  });
});

describe('races', () => {
  async function activeManagerAdmins(organizationId: string): Promise<number> {
    const rows = await t.ctx.db
      .selectFrom('users')
      .select(['role', 'isActive', 'permissions'])
      .where('organizationId', '=', organizationId)
      .execute();
    return rows.filter((r) => r.isActive && r.role === 'admin' && r.permissions.canManageUsers).length;
  }

  it('two admins stepping down at the same moment: one succeeds, the other is refused as the last admin', async () => {
    for (let round = 0; round < 5; round += 1) {
      const f = await firm(`Race ${round} LLP`);
      const second = await addMember(t, f.admin.organizationId, 'admin');
      const secondId = await publicIdOf(second.userId);
      const [a, b] = await Promise.all([
        f.admin.client.post('/_api/settings/users/role', { userId: f.adminId, newRole: 'user', reason: 'Stepping down now' }),
        second.client.post('/_api/settings/users/permissions', { userId: secondId, permissions: { canManageUsers: false } }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      expect([a, b].find((r) => r.statusCode === 409)!.json().code).toBe('LAST_ADMIN_ERROR');
      expect(await activeManagerAdmins(f.admin.organizationId)).toBe(1);
    }
  });

  it('two admins demoting each other at the same moment: exactly one admin remains', async () => {
    for (let round = 0; round < 5; round += 1) {
      const f = await firm(`Duel ${round} LLP`);
      const second = await addMember(t, f.admin.organizationId, 'admin');
      const secondId = await publicIdOf(second.userId);
      const [a, b] = await Promise.all([
        f.admin.client.post('/_api/settings/users/role', { userId: secondId, newRole: 'user', reason: 'Demoting my colleague' }),
        second.client.post('/_api/settings/users/deactivate', { userId: f.adminId }),
      ]);
      expect([a.statusCode, b.statusCode]).toContain(200);
      expect([a.statusCode, b.statusCode].filter((s) => s === 200)).toHaveLength(1);
      expect(['PERMISSION_ERROR', 'LAST_ADMIN_ERROR']).toContain([a, b].find((r) => r.statusCode !== 200)!.json().code);
      expect(await activeManagerAdmins(f.admin.organizationId)).toBe(1);
    }
  });

  it('two invitations of one address sent at once: one is sent, the other refused as already invited', async () => {
    const f = await firm('Twin Invite LLP');
    const email = `twin${Math.random().toString(36).slice(2, 8)}@firm.test`;
    const answers = await Promise.all([0, 1, 2].map(() => f.admin.client.post('/_api/settings/users/invite', { email, role: 'user' })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const open = await t.ctx.db.selectFrom('invitations').select('id').where('email', '=', email).where('revokedAt', 'is', null).execute();
    expect(open).toHaveLength(1);
  });
});
