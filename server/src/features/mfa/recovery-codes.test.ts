import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, SETTINGS_AUDIT_ACTIONS, SETTINGS_MSG } from '@strongroom/contracts';
import { auditActions } from '../../../test/factories.js';
import {
  API,
  Client,
  createOrgWithAdmin,
  createTestApp,
  nextTotp,
  signInWithEmailCode,
  waitForCount,
  type TestApp,
} from '../../../test/helpers.js';
import { addPerson, freshIp, PASSWORD, type Person } from '../../../test/probe/world.js';
import { currentTotp } from './totp.js';

let t: TestApp;
let orgId: string;
beforeAll(async () => {
  t = await createTestApp();
  orgId = (await createOrgWithAdmin(t, 'Recovery LLP')).organizationId;
});
afterAll(() => t.shutdown());

type Totp = Person & { totpSecret: string };
const CODE = /^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/;

/** A user with an authenticator and a fresh set of recovery codes (asked for with the authenticator's code). */
async function withCodes(): Promise<{ p: Totp; codes: string[] }> {
  const p = (await addPerson(t, orgId, 'user', { totp: true })) as Totp;
  const res = await p.client.post('/_api/settings/mfa/recovery-codes', { mfaToken: currentTotp(p.totpSecret) });
  expect(res.statusCode, res.body).toBe(200);
  return { p, codes: res.json().recoveryCodes };
}

/** A client past the password step of the user's sign-in. */
async function pending(p: Person): Promise<Client> {
  const c = new Client(t.app, freshIp());
  expect((await c.post('/_api/auth/login_with_password', { email: p.email, password: PASSWORD })).statusCode).toBe(200);
  return c;
}

describe('recovery codes', () => {
  it('come with a new authenticator, ten of them, shown once', async () => {
    const acct = await createOrgWithAdmin(t, 'Enrol LLP');
    const c = await signInWithEmailCode(t, acct);
    const { secret } = (await c.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' })).json();
    const sw = await c.post('/_api/settings/mfa-manage', {
      operation: 'switch_to_totp',
      totpToken: currentTotp(secret),
      mfaToken: 'setup',
    });
    const codes: string[] = sw.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(CODE);
    expect(new Set(codes).size).toBe(10);
    expect((await c.get('/_api/settings/mfa')).json()).toEqual({ mfaEnabled: true, mfaPrimaryMethod: 'totp', recoveryCodesRemaining: 10 });
    // Only keyed hashes are stored.
    const rows = await t.ctx.db.selectFrom('mfaRecoveryCodes').select('codeHash').where('userId', '=', acct.userId).execute();
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      expect(r.codeHash).toMatch(/^[0-9a-f]{64}$/);
      for (const code of codes) expect(r.codeHash).not.toContain(code.replace('-', ''));
    }
  });

  it('given at enrolment on the setup wall are answered there only, and one of them signs the user in once', async () => {
    const acct = await createOrgWithAdmin(t, 'Enrol Once LLP');
    const c = await signInWithEmailCode(t, acct);
    const { secret } = (await c.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' })).json();
    const sw = await c.post('/_api/settings/mfa-manage', {
      operation: 'switch_to_totp',
      totpToken: currentTotp(secret),
      mfaToken: 'setup',
    });
    expect(sw.statusCode, sw.body).toBe(200);
    const codes: string[] = sw.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    // No later answer carries them again: not the session, not the MFA settings, not the profile.
    for (const path of ['/_api/auth/session', '/_api/settings/mfa', '/_api/settings/profile']) {
      const res = await c.get(path, API);
      expect(res.statusCode, `${path} ${res.body}`).toBe(200);
      for (const code of codes) expect(res.body).not.toContain(code);
    }
    // A second enrolment step cannot replay the switch: the pending secret is spent.
    const replay = await c.post('/_api/settings/mfa-manage', {
      operation: 'switch_to_totp',
      totpToken: currentTotp(secret),
      mfaToken: 'setup',
    });
    expect(replay.statusCode).toBeGreaterThanOrEqual(400);
    expect(replay.statusCode).toBeLessThan(500);
    expect(replay.body).not.toContain(codes[0]!);

    // After sign-out, the password and one of those codes sign the user in; the same code again is refused.
    expect((await c.post('/_api/auth/logout', {})).statusCode).toBe(200);
    const first = new Client(t.app, freshIp());
    expect((await first.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password })).statusCode).toBe(200);
    const ok = await first.post('/_api/auth/mfa-recovery', { userId: acct.userId, recoveryCode: codes[3] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ recoveryCodesRemaining: 9, user: { id: acct.userId } });
    expect((await first.get('/_api/auth/session', API)).statusCode).toBe(200);
    const second = new Client(t.app, freshIp());
    expect((await second.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password })).statusCode).toBe(200);
    const spent = await second.post('/_api/auth/mfa-recovery', { userId: acct.userId, recoveryCode: codes[3] });
    expect(spent.statusCode).toBe(401);
    expect(spent.json().error).toBe(MSG.invalidCode);
  });

  it('each sign a user in once instead of the authenticator; the user is mailed and it is audited', async () => {
    const { p, codes } = await withCodes();
    const c = await pending(p);
    const res = await c.post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: ` ${codes[0]!.toUpperCase()} ` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: SETTINGS_MSG.recoveryLoginVerified, recoveryCodesRemaining: 9, user: { id: p.userId } });
    expect((await c.get('/_api/auth/session', API)).statusCode).toBe(200);
    const mail = await t.sink.waitFor(p.email, { subjectIncludes: 'recovery code was used' });
    expect(JSON.stringify(mail)).toContain('9 unused recovery codes remain');
    expect(SETTINGS_AUDIT_ACTIONS).toEqual(expect.arrayContaining(['MFA_RECOVERY_CODE_USED', 'MFA_RECOVERY_CODES_REGENERATED']));
    const used = (await auditActions(t, orgId)).filter((a) => a.action === 'MFA_RECOVERY_CODE_USED').at(-1);
    expect(used).toMatchObject({ targetId: String(p.userId), details: { purpose: 'login', remaining: 9 } });

    // The same code again is refused like a wrong code.
    const again = await (await pending(p)).post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: codes[0] });
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe(MSG.invalidCode);
    // Without the hyphen, and in capitals, another code still works.
    const other = await (
      await pending(p)
    ).post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: codes[1]!.replace('-', '').toUpperCase() });
    expect(other.json().recoveryCodesRemaining).toBe(8);
  });

  it('refuses malformed codes, codes of another user, and calls without the pending sign-in', async () => {
    const { p } = await withCodes();
    const { codes: theirs } = await withCodes();
    const c = await pending(p);
    for (const bad of ['', 'abc', 'abcde-fghij-k', '123456']) {
      const res = await c.post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(SETTINGS_MSG.recoveryCodeFormat);
    }
    expect((await c.post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: theirs[0] })).json().error).toBe(MSG.invalidCode);
    const stranger = new Client(t.app, freshIp());
    expect((await stranger.post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: theirs[1] })).json().error).toBe(
      MSG.pendingLoginMissing,
    );
  });

  it('are renewed only with a fresh authenticator code; the old set stops working', async () => {
    const { p, codes } = await withCodes();
    const asked = await p.client.post('/_api/settings/mfa/recovery-codes', {});
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { operation: 'MFA_SETTINGS' } });
    const renewed = await p.client.post('/_api/settings/mfa/recovery-codes', { mfaToken: nextTotp(p.totpSecret) });
    expect(renewed.json()).toMatchObject({ success: true, message: SETTINGS_MSG.recoveryCodesRegenerated });
    const fresh: string[] = renewed.json().recoveryCodes;
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    expect((await (await pending(p)).post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: codes[2] })).statusCode).toBe(401);
    expect((await (await pending(p)).post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: fresh[0] })).statusCode).toBe(200);
    expect(
      (await auditActions(t, orgId)).some((a) => a.action === 'MFA_RECOVERY_CODES_REGENERATED' && a.targetId === String(p.userId)),
    ).toBe(true);
    // An email user has none to renew.
    const emailUser = await addPerson(t, orgId, 'user');
    const none = await emailUser.client.post('/_api/settings/mfa/recovery-codes', { mfaToken: '123456' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe(SETTINGS_MSG.recoveryCodeNoTotp);
  });

  it('let a user who lost the phone move to emailed codes; the remaining codes then go', async () => {
    const { p, codes } = await withCodes();
    const res = await p.client.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: codes[3] });
    expect(res.json()).toMatchObject({ success: true, message: MSG.emailEnabled, mfaPrimaryMethod: 'email' });
    expect((await p.client.get('/_api/settings/mfa')).json()).toEqual({
      mfaEnabled: true,
      mfaPrimaryMethod: 'email',
      recoveryCodesRemaining: 0,
    });
    expect(await t.ctx.db.selectFrom('mfaRecoveryCodes').select('id').where('userId', '=', p.userId).execute()).toEqual([]);
    await t.sink.waitFor(p.email, { subjectIncludes: 'recovery code was used' });
  });

  it('let a user who lost the phone enrol a new authenticator with a recovery code', async () => {
    const { p, codes } = await withCodes();
    const { secret } = (await p.client.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' })).json();
    const wrong = await p.client.post('/_api/settings/mfa-manage', {
      operation: 'switch_to_totp',
      totpToken: currentTotp(secret),
      mfaToken: 'aaaaa-aaaaa',
    });
    expect(wrong.json().error).toBe(MSG.invalidCode);
    const res = await p.client.post('/_api/settings/mfa-manage', {
      operation: 'switch_to_totp',
      totpToken: currentTotp(secret),
      mfaToken: codes[4],
    });
    expect(res.json()).toMatchObject({ success: true, mfaPrimaryMethod: 'totp' });
    // A new authenticator comes with a new set; the old codes are gone.
    expect(res.json().recoveryCodes).toHaveLength(10);
    expect((await (await pending(p)).post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: codes[5] })).statusCode).toBe(401);
  });

  it("stop working once the authenticator is no longer the method (an administrator's MFA reset)", async () => {
    const { p, codes } = await withCodes();
    await t.ctx.db.updateTable('users').set({ mfaPrimaryMethod: 'email', totpSecret: null }).where('id', '=', p.userId).execute();
    const res = await (await pending(p)).post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: codes[0] });
    expect(res.json().error).toBe(MSG.invalidCode);
  });

  it('count wrong codes like wrong authenticator codes: the fifth ends the pending sign-in', async () => {
    const { p } = await withCodes();
    const c = await pending(p);
    for (let i = 0; i < 4; i++) {
      expect((await c.post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: 'zzzzz-zzzz' + i })).json().error).toBe(
        MSG.invalidCode,
      );
    }
    const fifth = await c.post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: 'zzzzz-zzzzz' });
    expect(fifth.json()).toMatchObject({ error: MSG.pendingLoginLocked, details: { reason: 'SIGN_IN_ENDED' } });
  });

  it('work once under a burst of concurrent sign-ins with the same code', async () => {
    const { p, codes } = await withCodes();
    const clients = await Promise.all(Array.from({ length: 6 }, () => pending(p)));
    const answers = await Promise.all(clients.map((c) => c.post('/_api/auth/mfa-recovery', { userId: p.userId, recoveryCode: codes[6] })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    expect((await p.client.get('/_api/settings/mfa')).json().recoveryCodesRemaining).toBe(9);
  });
});

describe('POST /_api/settings/mfa', () => {
  it('sets up emailed codes behind the setup wall: setup sends the code, the token completes it', async () => {
    const acct = await createOrgWithAdmin(t, 'Email Setup LLP');
    const c = await signInWithEmailCode(t, acct);
    const before = t.sink.messages.length;
    const sent = await c.post('/_api/settings/mfa', { enable: true, method: 'email', setup: true });
    expect(sent.json()).toMatchObject({ success: true, codeSent: true, message: MSG.setupEmailSent });
    await waitForCount(t.sink, before + 1);
    const code = await t.sink.lastCode(acct.email);
    const done = await c.post('/_api/settings/mfa', { enable: true, method: 'email', token: code });
    expect(done.json()).toMatchObject({ success: true, message: MSG.emailEnabled, mfaEnabled: true, mfaPrimaryMethod: 'email' });
    expect((await c.get('/_api/settings/mfa')).json()).toEqual({ mfaEnabled: true, mfaPrimaryMethod: 'email', recoveryCodesRemaining: 0 });
  });

  it('never turns MFA off, and maps the setup steps onto mfa-manage', async () => {
    const p = (await addPerson(t, orgId, 'user', { totp: true })) as Totp;
    const off = await p.client.post('/_api/settings/mfa', { enable: false, method: 'totp' });
    expect(off.statusCode).toBe(400);
    expect(off.json().error).toBe(SETTINGS_MSG.mfaCannotDisable);
    expect((await p.client.post('/_api/settings/mfa', { enable: true })).json().error).toBe(SETTINGS_MSG.mfaMethodRequired);
    const setup = await p.client.post('/_api/settings/mfa', { enable: true, method: 'totp', setup: true });
    expect(setup.json()).toMatchObject({ success: true, qrCode: expect.stringMatching(/^data:image\/png;base64,/) });
    const { secret } = setup.json();
    const done = await p.client.post('/_api/settings/mfa', {
      enable: true,
      method: 'totp',
      token: currentTotp(secret),
      mfaToken: currentTotp(p.totpSecret),
    });
    expect(done.json()).toMatchObject({ success: true, message: MSG.totpEnabled, mfaPrimaryMethod: 'totp' });
    expect(done.json().recoveryCodes).toHaveLength(10);
    const toEmail = await p.client.post('/_api/settings/mfa', { enable: true, method: 'email', token: nextTotp(secret) });
    expect(toEmail.json()).toMatchObject({ success: true, message: MSG.emailEnabled, mfaPrimaryMethod: 'email' });
  });
});
