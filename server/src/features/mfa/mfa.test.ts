import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import {
  API,
  Client,
  createOrgWithAdmin,
  createTestApp,
  nextTotp,
  signInWithEmailCode,
  waitForCount,
  type Account,
  type TestApp,
} from '../../../test/helpers.js';
import { currentTotp } from './totp.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.shutdown());

describe('MFA setup wall', () => {
  let acct: Account;
  let c: Client;
  beforeAll(async () => {
    acct = await createOrgWithAdmin(t, 'Wall LLP');
    c = await signInWithEmailCode(t, acct);
  });

  it('holds every other call until MFA is set up', async () => {
    expect((await c.get('/_api/auth/session', API)).json().user.mfaSetupRequired).toBe(true);
    expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_SETTINGS', mfaToken: '123456' })).statusCode).toBe(403);
  });

  it('generates a secret with a QR image; a wrong code does not enable TOTP', async () => {
    const gen = await c.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' });
    expect(gen.statusCode).toBe(200);
    const { qrCode, secret } = gen.json();
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const bad = await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_totp', totpToken: '000000', mfaToken: 'setup' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error).toBe(MSG.invalidCode);
    expect((await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_totp', mfaToken: 'setup' })).json().error).toBe(
      MSG.totpTokenRequired,
    );
    expect(
      (await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_totp', totpToken: '12', mfaToken: 'setup' })).json().error,
    ).toBe(MSG.codeSixDigits);
    expect((await c.post('/_api/settings/mfa-manage', { operation: 'disable' })).statusCode).toBe(400);
    const ok = await c.post('/_api/settings/mfa-manage', {
      operation: 'switch_to_totp',
      totpToken: currentTotp(secret),
      mfaToken: 'setup',
    });
    expect(ok.json()).toMatchObject({ success: true, message: MSG.totpEnabled, mfaPrimaryMethod: 'totp' });
    const s = (await c.get('/_api/auth/session', API)).json();
    expect(s.user).toMatchObject({ mfaSetupRequired: false, mfaEnabled: true, mfaPrimaryMethod: 'totp' });

    // Switching back to email needs the current TOTP code, and 'setup' no longer works.
    expect((await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' })).statusCode).toBe(400);
    const sw = await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: nextTotp(secret) });
    expect(sw.json()).toMatchObject({ message: MSG.emailEnabled, mfaPrimaryMethod: 'email' });
    const actions = (
      await t.ctx.db.selectFrom('auditLogs').select('action').where('organizationId', '=', acct.organizationId).execute()
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['MFA_SETUP_INITIATED', 'MFA_TOTP_ENABLED', 'MFA_EMAIL_ENABLED']));
  });

  it('switching an email user to TOTP needs an emailed code for the current method', async () => {
    const { secret } = (await c.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' })).json();
    const noCode = await c.post('/_api/settings/mfa-manage', {
      operation: 'switch_to_totp',
      totpToken: currentTotp(secret),
      mfaToken: 'setup',
    });
    expect(noCode.statusCode).toBe(401);
    const before = t.sink.messages.length;
    await c.post('/_api/auth/mfa-email', { userId: acct.userId });
    await waitForCount(t.sink, before + 1);
    const code = await t.sink.lastCode(acct.email);
    const ok = await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_totp', totpToken: currentTotp(secret), mfaToken: code });
    expect(ok.json().message).toBe(MSG.totpEnabled);
  });
});

describe('email MFA setup', () => {
  it('sends a code with mfaToken setup, then enables email with that code', async () => {
    const acct = await createOrgWithAdmin(t, 'Mail LLP');
    const c = await signInWithEmailCode(t, acct);
    const before = t.sink.messages.length;
    const sent = await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' });
    expect(sent.json()).toMatchObject({ success: true, codeSent: true, message: MSG.setupEmailSent });
    await waitForCount(t.sink, before + 1);
    const code = await t.sink.lastCode(acct.email);
    expect(
      (await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: '111111' === code ? '222222' : '111111' }))
        .statusCode,
    ).toBe(401);
    const ok = await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: code });
    expect(ok.json()).toMatchObject({ message: MSG.emailEnabled, mfaEnabled: true });
    expect((await c.get('/_api/auth/session', API)).json().user.mfaSetupRequired).toBe(false);
  });
});

describe('system MFA', () => {
  it('validates the operation and the token', async () => {
    const acct = await createOrgWithAdmin(t, 'Sys LLP');
    const c = await signInWithEmailCode(t, acct);
    await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' });
    await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: await t.sink.lastCode(acct.email) });
    expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'MAKE_COFFEE', mfaToken: '123456' })).json().error).toBe(
      MSG.invalidSystemMfaOperation,
    );
    expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_SETTINGS', mfaToken: '123' })).json().error).toBe(
      MSG.mfaTokenSixDigits,
    );
    expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_SETTINGS', mfaToken: 'abcdef' })).json().error).toBe(
      MSG.mfaTokenNumeric,
    );
    expect((await new Client(t.app).post('/_api/auth/verifySystemMfa', { operation: 'MFA_SETTINGS', mfaToken: '123456' })).statusCode).toBe(
      401,
    );

    const before = t.sink.messages.length;
    expect((await c.post('/_api/auth/mfa-email', { userId: acct.userId })).statusCode).toBe(200);
    await waitForCount(t.sink, before + 1);
    const code = await t.sink.lastCode(acct.email);
    const ok = await c.post('/_api/auth/verifySystemMfa', { operation: 'VIEW_ARCHIVAL_STATS', mfaToken: code });
    expect(ok.statusCode).toBe(200);
    const body = ok.json();
    const minutes = (new Date(body.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    // The code is spent.
    expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'VIEW_ARCHIVAL_STATS', mfaToken: code })).statusCode).toBe(401);
  });

  it('locks after five wrong codes', async () => {
    const acct = await createOrgWithAdmin(t, 'Lock LLP');
    const c = await signInWithEmailCode(t, acct);
    await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' });
    await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: await t.sink.lastCode(acct.email) });
    for (let i = 0; i < 5; i++) {
      expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_SETTINGS', mfaToken: '000000' })).statusCode).toBe(401);
    }
    expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_SETTINGS', mfaToken: '000000' })).statusCode).toBe(429);
    const failures = await t.ctx.db
      .selectFrom('auditLogs')
      .select('action')
      .where('organizationId', '=', acct.organizationId)
      .where('action', '=', 'MFA_VERIFICATION_FAILED')
      .execute();
    expect(failures.length).toBe(5);
  });
});
