import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { API, Client, createOrgWithAdmin, createTestApp, signInWithEmailCode, type Account, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let acct: Account;
let c: Client;
beforeAll(async () => {
  t = await createTestApp();
  acct = await createOrgWithAdmin(t);
  c = await signInWithEmailCode(t, acct);
  await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' });
  await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: await t.sink.lastCode(acct.email) });
});
afterAll(() => t.shutdown());

describe('password change', () => {
  it('validates with the published messages', async () => {
    const v = (b: object) => c.post('/_api/settings/password', b).then((r) => r.json().error);
    expect(await v({ currentPassword: '', newPassword: 'new password', confirmPassword: 'new password' })).toBe(
      'Current password is required.',
    );
    expect(await v({ currentPassword: 'x', newPassword: 'short', confirmPassword: 'short' })).toBe(
      'New password must be at least 8 characters.',
    );
    expect(await v({ currentPassword: 'x', newPassword: 'new password', confirmPassword: 'other password' })).toBe(
      "New passwords don't match.",
    );
    expect(await v({ currentPassword: 'wrong one', newPassword: 'new password', confirmPassword: 'new password' })).toBe(
      MSG.currentPasswordWrong,
    );
    expect(
      (
        await new Client(t.app).post('/_api/settings/password', {
          currentPassword: 'x',
          newPassword: 'new password',
          confirmPassword: 'new password',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const other = new Client(t.app);
    // A second session of the same account, opened through the full flow.
    const { userId } = (await other.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password })).json();
    expect(userId).toBe(acct.userId);
    const r = await c.post('/_api/settings/password', {
      currentPassword: acct.password,
      newPassword: 'a new passphrase',
      confirmPassword: 'a new passphrase',
    });
    expect(r.json()).toEqual({ success: true, message: MSG.passwordChanged });
    expect((await c.get('/_api/auth/session', API)).statusCode).toBe(200);
    // The pending sign-in opened with the old password is over.
    expect((await other.post('/_api/auth/mfa-challenge', { userId })).statusCode).toBe(401);
    expect(
      (await new Client(t.app).post('/_api/auth/login_with_password', { email: acct.email, password: acct.password })).statusCode,
    ).toBe(401);
    expect(
      (await new Client(t.app).post('/_api/auth/login_with_password', { email: acct.email, password: 'a new passphrase' })).statusCode,
    ).toBe(200);
    const actions = (
      await t.ctx.db.selectFrom('auditLogs').select('action').where('organizationId', '=', acct.organizationId).execute()
    ).map((x) => x.action);
    expect(actions).toContain('USER_PASSWORD_CHANGE');
  });

  it('ends sessions of a deactivated user at once', async () => {
    await t.ctx.db.updateTable('users').set({ isActive: false }).where('id', '=', acct.userId).execute();
    expect((await c.get('/_api/auth/session', API)).json().code).toBe('SESSION_NOT_FOUND');
    expect(
      (await new Client(t.app).post('/_api/auth/login_with_password', { email: acct.email, password: 'a new passphrase' })).json().error,
    ).toBe(MSG.invalidCredentials);
  });
});
