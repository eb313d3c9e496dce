import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FEATURE_FLAG_DESCRIPTIONS,
  FEATURE_FLAG_NAMES,
  MSG,
  SETTINGS_AUDIT_ACTIONS,
  SETTINGS_MSG,
  type FeatureFlagName,
  type SettingsAuditAction,
} from '@strongroom/contracts';
import { auditActions, createMatter, systemMfaToken } from '../../../test/factories.js';
import { API, Client, createOrgWithAdmin, createTestApp, type TestApp } from '../../../test/helpers.js';
import { addPerson, PASSWORD, type Person } from '../../../test/probe/world.js';
import { currentTotp } from '../mfa/index.js';
import { createSession, SESSION_COOKIE } from '../sessions/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.shutdown());

type Totp = Person & { totpSecret: string };

/** A member with an authenticator and a session; two codes of it are usable (this step and the next). */
async function member(organizationId: string, role: 'admin' | 'user' | 'guest' = 'admin'): Promise<Totp> {
  return (await addPerson(t, organizationId, role, { totp: true })) as Totp;
}

/** A 30-minute system MFA token of the organization class (feature flags, organization, retention). */
const orgToken = (p: Totp) => systemMfaToken(p, 'MANAGE_FEATURE_FLAGS', 0);

async function newOrg(name: string) {
  return (await createOrgWithAdmin(t, name)).organizationId;
}

/**
 * The authenticator's current code, usable once more: the user's last used step is forgotten first (a test turns
 * flags off more often than the clock gives new codes).
 */
async function freshCode(p: Totp): Promise<string> {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', p.userId).execute();
  return currentTotp(p.totpSecret);
}

/** Sets flags with the organization-class token; turning an MFA flag off takes a fresh code instead. */
async function setFlags(admin: Totp, token: string, flags: Partial<Record<FeatureFlagName, boolean>>) {
  const turnsOff = Object.entries(flags).some(([name, enabled]) => name.startsWith('MFA_') && !enabled);
  const res = await admin.client.post('/_api/settings/feature-flags', {
    flagsToUpdate: Object.entries(flags).map(([flagName, enabled]) => ({ flagName, enabled })),
    mfaToken: turnsOff ? await freshCode(admin) : token,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The newest audit entry of that action in the organization (the action being one the contracts list). */
const lastAudit = async (orgId: string, action: SettingsAuditAction) => {
  expect(SETTINGS_AUDIT_ACTIONS).toContain(action);
  return (await auditActions(t, orgId)).filter((a) => a.action === action).at(-1);
};

describe('profile', () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = await newOrg('Profile LLP');
  });

  it("answers the signed-in user's own profile, guests included", async () => {
    const guest = await member(orgId, 'guest');
    const res = await guest.client.get('/_api/settings/profile');
    expect(res.json()).toEqual({
      fullName: 'Pat guest',
      email: guest.email,
      phoneNumber: null,
      role: 'guest',
      mfaEnabled: true,
      mfaPrimaryMethod: 'totp',
      recoveryCodesRemaining: 0,
    });
    expect((await new Client(t.app).get('/_api/settings/profile')).statusCode).toBe(401);
  });

  it('refuses each invalid field with its message', async () => {
    const p = await member(orgId, 'user');
    const send = async (body: Record<string, unknown>) => (await p.client.post('/_api/settings/profile', body)).json();
    const valid = { fullName: 'Pat Person', email: p.email };
    expect((await send({ ...valid, fullName: 'P' })).error).toBe(SETTINGS_MSG.fullNameMin);
    expect((await send({ ...valid, fullName: '  P  ' })).error).toBe(SETTINGS_MSG.fullNameMin);
    expect((await send({ ...valid, fullName: 'x'.repeat(201) })).error).toBe(SETTINGS_MSG.fullNameMax);
    expect((await send({ ...valid, email: 'not-an-address' })).error).toBe(MSG.validEmail);
    expect((await send({ fullName: 'Pat Person' })).error).toBe(MSG.validEmail);
    expect((await send({ ...valid, phoneNumber: 'call me' })).error).toBe(SETTINGS_MSG.phoneInvalid);
    expect((await send({ ...valid, phoneNumber: '12' })).error).toBe(SETTINGS_MSG.phoneInvalid);
    expect((await send({ ...valid, role: 'admin' })).code).toBe('VALIDATION_ERROR');
  });

  it('changes name and phone at once, audited with before and after', async () => {
    const p = await member(orgId, 'user');
    const res = await p.client.post('/_api/settings/profile', {
      fullName: ' Patricia Person ',
      email: p.email,
      phoneNumber: '+44 20 7946 0000',
    });
    expect(res.json()).toMatchObject({
      success: true,
      message: SETTINGS_MSG.profileUpdated,
      profile: { fullName: 'Patricia Person', email: p.email, phoneNumber: '+44 20 7946 0000' },
    });
    expect((await p.client.get('/_api/auth/session', API)).json().user.displayName).toBe('Patricia Person');
    const entry = await lastAudit(orgId, 'UPDATE_PROFILE');
    expect(entry?.details).toMatchObject({
      before: { fullName: 'Pat user', email: p.email, phoneNumber: null },
      after: { fullName: 'Patricia Person', email: p.email, phoneNumber: '+44 20 7946 0000' },
    });
    // An empty phone number clears it.
    const cleared = await p.client.post('/_api/settings/profile', { fullName: 'Patricia Person', email: p.email, phoneNumber: '' });
    expect(cleared.json().profile.phoneNumber).toBeNull();
  });

  it("refuses another account's address with 409 EMAIL_TAKEN before asking for a code", async () => {
    const p = await member(orgId, 'user');
    const elsewhere = await member(await newOrg('Elsewhere LLP'), 'user');
    for (const email of [elsewhere.email, elsewhere.email.toUpperCase()]) {
      const res = await p.client.post('/_api/settings/profile', { fullName: 'Pat Person', email });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        error: SETTINGS_MSG.emailTaken,
        code: 'CONFLICT_ERROR',
        details: { reason: 'EMAIL_TAKEN', field: 'email' },
      });
    }
  });

  it('changes the email address only with a fresh code, and tells the old address', async () => {
    const p = await member(orgId, 'user');
    const newEmail = `renamed.${Date.now()}@firm.test`;
    const asked = await p.client.post('/_api/settings/profile', { fullName: 'Pat user', email: newEmail });
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { operation: 'UPDATE_PROFILE_EMAIL', mfaMethod: 'totp' } });
    const wrong = await p.client.post('/_api/settings/profile', { fullName: 'Pat user', email: newEmail, mfaToken: '000000' });
    expect(wrong.json().code).toBe('MFA_INVALID');
    // A system MFA token is not a fresh code for this change.
    const sys = await systemMfaToken(p, 'MFA_USER_MANAGEMENT', 0);
    expect((await p.client.post('/_api/settings/profile', { fullName: 'Pat user', email: newEmail, mfaToken: sys })).json().code).toBe(
      'MFA_INVALID',
    );
    const before = t.sink.messages.length;
    const done = await p.client.post('/_api/settings/profile', {
      fullName: 'Pat user',
      email: newEmail.toUpperCase(),
      mfaToken: currentTotp(p.totpSecret, Date.now() + 30_000),
    });
    expect(done.json()).toMatchObject({ success: true, profile: { email: newEmail } });
    const notice = await t.sink.waitFor(p.email, { subjectIncludes: 'email address of your account was changed' });
    expect(JSON.stringify(notice)).toContain(newEmail);
    expect(t.sink.messages.length).toBeGreaterThan(before);
    expect((await new Client(t.app).post('/_api/auth/login_with_password', { email: newEmail, password: PASSWORD })).statusCode).toBe(200);
    expect((await lastAudit(orgId, 'UPDATE_PROFILE'))?.details).toMatchObject({ before: { email: p.email }, after: { email: newEmail } });
  });
});

describe('profile races', () => {
  it('gives one address to one of two users asking for it at the same moment; the other hears EMAIL_TAKEN', async () => {
    const orgId = await newOrg('Race LLP');
    const [a, b] = await Promise.all([member(orgId, 'user'), member(orgId, 'user')]);
    const email = `contested.${Date.now()}@firm.test`;
    const answers = await Promise.all(
      [a!, b!].map((p) => p.client.post('/_api/settings/profile', { fullName: 'Pat user', email, mfaToken: currentTotp(p.totpSecret) })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().details).toMatchObject({ reason: 'EMAIL_TAKEN', field: 'email' });
    const holders = await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(holders).toHaveLength(1);
  });
});

describe('password change', () => {
  it("ends the user's other signed-in sessions at once and keeps this one", async () => {
    const orgId = await newOrg('Password LLP');
    const p = await member(orgId, 'user');
    const other = await member(orgId, 'user');
    // A second live session of the same account.
    const row = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', p.userId).executeTakeFirstOrThrow();
    const { token } = await t.ctx.db.transaction().execute((trx) => createSession(t.ctx, trx, row, { ip: '10.9.9.9', userAgent: 'test' }));
    const second = new Client(t.app);
    second.cookies.set(SESSION_COOKIE, token);
    expect((await second.get('/_api/auth/session', API)).statusCode).toBe(200);
    const res = await p.client.post('/_api/settings/password', {
      currentPassword: PASSWORD,
      newPassword: 'another long passphrase',
      confirmPassword: 'another long passphrase',
    });
    expect(res.json()).toEqual({ success: true, message: MSG.passwordChanged });
    expect((await second.get('/_api/auth/session', API)).statusCode).toBe(401);
    expect((await p.client.get('/_api/auth/session', API)).statusCode).toBe(200);
    // Another user's session is untouched.
    expect((await other.client.get('/_api/auth/session', API)).statusCode).toBe(200);
  });
});

describe('organization', () => {
  let orgId: string;
  let admin: Totp;
  beforeAll(async () => {
    orgId = await newOrg('Org Settings LLP');
    admin = await member(orgId);
  });
  const valid = {
    name: 'Org Settings LLP',
    primaryContactName: 'Jane Counsel',
    primaryContactEmail: 'jane@orgsettings.test',
    primaryContactPhone: '+44 20 7946 0001',
  };

  it('is read by admins and users (unset fields are null), refused to guests', async () => {
    // The firm was made by the CLI: its administrator is the primary contact; no phone yet.
    const a = (await admin.client.get('/_api/settings/organization')).json();
    expect(a).toEqual({
      organizationId: orgId,
      name: 'Org Settings LLP',
      primaryContactName: 'Ada Admin',
      primaryContactEmail: expect.stringMatching(/@firm\.test$/),
      primaryContactPhone: null,
      canEdit: true,
    });
    const user = await member(orgId, 'user');
    expect((await user.client.get('/_api/settings/organization')).json()).toMatchObject({ name: 'Org Settings LLP', canEdit: false });
    const guest = await member(orgId, 'guest');
    expect((await guest.client.get('/_api/settings/organization')).statusCode).toBe(403);
  });

  it('refuses each invalid field with its message', async () => {
    const send = async (body: Record<string, unknown>) => (await admin.client.post('/_api/settings/organization', body)).json().error;
    expect(await send({ ...valid, name: 'X' })).toBe(SETTINGS_MSG.firmNameRequired);
    expect(await send({ ...valid, primaryContactName: '' })).toBe(SETTINGS_MSG.contactNameRequired);
    expect(await send({ ...valid, primaryContactEmail: 'nope' })).toBe(SETTINGS_MSG.contactEmailInvalid);
    expect(await send({ ...valid, primaryContactPhone: '' })).toBe(SETTINGS_MSG.contactPhoneRequired);
    expect(await send({ ...valid, primaryContactPhone: 'ring ring' })).toBe(SETTINGS_MSG.phoneInvalid);
  });

  it('is changed by admins only, behind a code while MFA_ORGANIZATION_SETTINGS is on, audited with before and after', async () => {
    for (const role of ['user', 'guest'] as const) {
      const p = await member(orgId, role);
      const res = await p.client.post('/_api/settings/organization', { ...valid, mfaToken: currentTotp(p.totpSecret) });
      expect(res.statusCode).toBe(403);
    }
    const asked = await admin.client.post('/_api/settings/organization', valid);
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toMatchObject({ code: 'MFA_REQUIRED', mfaRequired: true, details: { operation: 'MFA_ORGANIZATION_SETTINGS' } });
    // A token bought for user management does not open organization settings.
    const people = await systemMfaToken(admin, 'MFA_USER_MANAGEMENT', 0);
    expect((await admin.client.post('/_api/settings/organization', { ...valid, mfaToken: people })).json().code).toBe('MFA_INVALID');
    const before = (await admin.client.get('/_api/settings/organization')).json();
    const admin2 = await member(orgId);
    const res = await admin2.client.post('/_api/settings/organization', {
      ...valid,
      name: 'Renamed LLP',
      mfaToken: await orgToken(admin2),
    });
    expect(res.json()).toMatchObject({
      success: true,
      message: SETTINGS_MSG.organizationUpdated,
      organization: { ...valid, name: 'Renamed LLP', organizationId: orgId },
    });
    expect((await lastAudit(orgId, 'UPDATE_ORG_INFO'))?.details).toEqual({
      before: {
        name: 'Org Settings LLP',
        primaryContactName: before.primaryContactName,
        primaryContactEmail: before.primaryContactEmail,
        primaryContactPhone: null,
      },
      after: { ...valid, name: 'Renamed LLP' },
    });
  });

  it("never shows or changes another organization's details", async () => {
    const otherOrg = await newOrg('Other Firm LLP');
    const other = await member(otherOrg);
    const res = await other.client.post('/_api/settings/organization', {
      ...valid,
      name: 'Other Renamed',
      mfaToken: await orgToken(other),
    });
    expect(res.statusCode).toBe(200);
    expect((await admin.client.get('/_api/settings/organization')).json().name).toBe('Renamed LLP');
    expect((await other.client.get('/_api/settings/organization')).json()).toMatchObject({
      organizationId: otherOrg,
      name: 'Other Renamed',
    });
  });
});

describe('retention and vault configuration', () => {
  let orgId: string;
  let admin: Totp;
  beforeAll(async () => {
    orgId = await newOrg('Retention LLP');
    admin = await member(orgId);
  });

  it('answers the default and the real vault configuration to admins and users, not guests', async () => {
    const expected = {
      defaultRetentionYears: 7,
      binRetentionDays: 30,
      vaultConfiguration: {
        objectLockMode: 'COMPLIANCE',
        mfaForVaulting: 'Required',
        writeOnce: { enforced: true, store: 'local', mode: 'COMPLIANCE' },
      },
    };
    expect((await admin.client.get('/_api/settings/retention')).json()).toMatchObject({ ...expected, canEdit: true });
    const user = await member(orgId, 'user');
    expect((await user.client.get('/_api/settings/retention')).json()).toMatchObject({ ...expected, canEdit: false });
    const guest = await member(orgId, 'guest');
    expect((await guest.client.get('/_api/settings/retention')).statusCode).toBe(403);
  });

  it('refuses a retention below one year, fractional or not a number', async () => {
    const send = async (v: unknown) => (await admin.client.post('/_api/settings/retention', { defaultRetentionYears: v })).json().error;
    expect(await send(0)).toBe(SETTINGS_MSG.retentionMin);
    expect(await send(-3)).toBe(SETTINGS_MSG.retentionMin);
    expect(await send(2.5)).toBe(SETTINGS_MSG.retentionInteger);
    expect(await send('7')).toBe(SETTINGS_MSG.retentionMin);
    expect(await send(101)).toBe(SETTINGS_MSG.retentionMax);
    const bin = async (v: unknown) =>
      (await admin.client.post('/_api/settings/retention', { defaultRetentionYears: 7, binRetentionDays: v })).json().error;
    for (const v of [0, 366, 2.5, '30', -1]) expect(await bin(v)).toBe(SETTINGS_MSG.binRetentionRange);
  });

  it('is changed by admins only, behind a code while MFA_RETENTION_POLICIES is on, audited with before and after', async () => {
    const user = await member(orgId, 'user');
    expect(
      (await user.client.post('/_api/settings/retention', { defaultRetentionYears: 3, mfaToken: currentTotp(user.totpSecret) })).statusCode,
    ).toBe(403);
    const asked = await admin.client.post('/_api/settings/retention', { defaultRetentionYears: 10 });
    expect(asked.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { operation: 'MFA_RETENTION_POLICIES' } });
    const res = await admin.client.post('/_api/settings/retention', { defaultRetentionYears: 10, mfaToken: currentTotp(admin.totpSecret) });
    expect(res.json()).toEqual({ success: true, message: SETTINGS_MSG.retentionUpdated, defaultRetentionYears: 10, binRetentionDays: 30 });
    expect((await user.client.get('/_api/settings/retention')).json().defaultRetentionYears).toBe(10);
    expect((await lastAudit(orgId, 'UPDATE_RETENTION'))?.details).toEqual({
      before: { defaultRetentionYears: 7, binRetentionDays: 30 },
      after: { defaultRetentionYears: 10, binRetentionDays: 30 },
    });
    // The recycle bin's days, changed with the years (left out above: unchanged).
    const bin = await admin.client.post('/_api/settings/retention', {
      defaultRetentionYears: 10,
      binRetentionDays: 14,
      mfaToken: currentTotp(admin.totpSecret, Date.now() + 30_000),
    });
    expect(bin.json()).toMatchObject({ success: true, binRetentionDays: 14 });
    expect((await user.client.get('/_api/settings/retention')).json().binRetentionDays).toBe(14);
    expect((await lastAudit(orgId, 'UPDATE_RETENTION'))?.details).toEqual({
      before: { defaultRetentionYears: 10, binRetentionDays: 30 },
      after: { defaultRetentionYears: 10, binRetentionDays: 14 },
    });
  });
});

describe('feature flags', () => {
  let orgId: string;
  let admin: Totp;
  let token: string;
  beforeAll(async () => {
    orgId = await newOrg('Flags LLP');
    admin = await member(orgId);
    token = await orgToken(admin);
  });

  it('lists the six flags with descriptions to admins only', async () => {
    const res = (await admin.client.get('/_api/settings/feature-flags')).json();
    expect(res.featureFlags).toEqual(
      FEATURE_FLAG_NAMES.map((flagName) => ({
        flagName,
        description: FEATURE_FLAG_DESCRIPTIONS[flagName],
        enabled: flagName !== 'enhanced_user_management',
      })),
    );
    for (const role of ['user', 'guest'] as const) {
      const p = await member(orgId, role);
      const r = await p.client.get('/_api/settings/feature-flags');
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toBe(SETTINGS_MSG.adminsOnly);
      const w = await p.client.post('/_api/settings/feature-flags', {
        flagsToUpdate: [{ flagName: 'MFA_USER_MANAGEMENT', enabled: false }],
        mfaToken: currentTotp(p.totpSecret),
      });
      expect(w.statusCode).toBe(403);
    }
  });

  it('refuses invalid updates with their messages', async () => {
    const send = async (body: Record<string, unknown>) => (await admin.client.post('/_api/settings/feature-flags', body)).json().error;
    expect(await send({ flagsToUpdate: [] })).toBe(SETTINGS_MSG.flagsAtLeastOne);
    expect(await send({})).toBe(SETTINGS_MSG.flagsAtLeastOne);
    expect(await send({ flagsToUpdate: [{ flagName: 'MFA_EVERYTHING', enabled: false }] })).toBe(SETTINGS_MSG.flagNameInvalid);
    expect(
      await send({
        flagsToUpdate: [
          { flagName: 'MFA_USER_MANAGEMENT', enabled: false },
          { flagName: 'MFA_USER_MANAGEMENT', enabled: true },
        ],
      }),
    ).toBe(SETTINGS_MSG.flagDuplicate);
    // Another organization named in the body: refused before any code is asked for.
    const mismatch = await admin.client.post('/_api/settings/feature-flags', {
      flagsToUpdate: [{ flagName: 'MFA_USER_MANAGEMENT', enabled: false }],
      organizationId: 'some-other-org',
    });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().error).toBe(SETTINGS_MSG.organizationMismatch);
  });

  it('always needs system MFA of the organization class, and audits every change with before and after', async () => {
    const body = { flagsToUpdate: [{ flagName: 'enhanced_user_management', enabled: true }], organizationId: orgId };
    const asked = await admin.client.post('/_api/settings/feature-flags', body);
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toMatchObject({
      code: 'MFA_REQUIRED',
      mfaRequired: true,
      details: { operation: 'MANAGE_FEATURE_FLAGS', mfaMethod: 'totp', availableMethods: ['totp'] },
    });
    const people = await systemMfaToken(admin, 'MFA_USER_MANAGEMENT', 1);
    expect((await admin.client.post('/_api/settings/feature-flags', { ...body, mfaToken: people })).json().code).toBe('MFA_INVALID');
    const res = await admin.client.post('/_api/settings/feature-flags', { ...body, mfaToken: token });
    expect(res.json()).toMatchObject({ success: true, message: SETTINGS_MSG.flagsUpdated });
    expect(res.json().featureFlags.find((f: { flagName: string }) => f.flagName === 'enhanced_user_management').enabled).toBe(true);
    const entry = await lastAudit(orgId, 'UPDATE_FEATURE_FLAGS');
    expect(entry?.details).toMatchObject({
      before: { enhanced_user_management: false, MFA_USER_MANAGEMENT: true },
      after: { enhanced_user_management: true, MFA_USER_MANAGEMENT: true },
      changed: ['enhanced_user_management'],
    });
    await setFlags(admin, token, { enhanced_user_management: false });
  });

  it("changes only the caller's organization", async () => {
    const other = await newOrg('Other Flags LLP');
    const otherAdmin = await member(other);
    await setFlags(otherAdmin, await orgToken(otherAdmin), { MFA_USER_MANAGEMENT: false });
    const mine = (await admin.client.get('/_api/settings/feature-flags')).json().featureFlags;
    expect(mine.find((f: { flagName: string }) => f.flagName === 'MFA_USER_MANAGEMENT').enabled).toBe(true);
  });

  // Each flag against a call it guards: off, the call goes through without a code; on, it answers MFA_REQUIRED.
  const guarded: Array<[FeatureFlagName, (p: Totp) => Promise<{ statusCode: number; json(): { code?: string } }>]> = [
    [
      'MFA_USER_MANAGEMENT',
      (p) => p.client.post('/_api/settings/users/invite', { email: `flag.${Math.random().toString(36).slice(2)}@firm.test`, role: 'user' }),
    ],
    [
      'MFA_ORGANIZATION_SETTINGS',
      (p) =>
        p.client.post('/_api/settings/organization', {
          name: 'Flags LLP',
          primaryContactName: 'Jane Counsel',
          primaryContactEmail: 'jane@flags.test',
          primaryContactPhone: '+1 555 0100',
        }),
    ],
    ['MFA_RETENTION_POLICIES', (p) => p.client.post('/_api/settings/retention', { defaultRetentionYears: 8 })],
    [
      'MFA_VAULT_OPERATIONS',
      async (p) => {
        const matter = await createMatter(p.client);
        return p.client.post('/_api/matters/legal-hold', {
          matterId: matter.id,
          action: 'apply',
          reason: 'Litigation expected by the client',
        });
      },
    ],
  ];
  for (const [flag, call] of guarded) {
    it(`${flag} off lets its call through without a code; on, the call asks for one`, async () => {
      await setFlags(admin, token, { [flag]: false });
      const off = await call(admin);
      expect(off.statusCode, JSON.stringify(off.json())).toBe(200);
      await setFlags(admin, token, { [flag]: true });
      const on = await call(admin);
      expect(on.statusCode).toBe(401);
      expect(on.json().code).toBe('MFA_REQUIRED');
    });
  }
});
