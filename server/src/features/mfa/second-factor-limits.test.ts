import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import {
  Client,
  createOrgWithAdmin,
  createTestApp,
  enrollTotp,
  nextTotp,
  signInWithEmailCode,
  uniqueEmail,
  waitForCount,
  type Account,
  type TestApp,
} from '../../../test/helpers.js';
import { MFA_KEY_FILE } from './secret-box.js';
import { currentTotp } from './totp.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.shutdown());

const auditCount = async (userId: number, action: string) =>
  (await t.ctx.db.selectFrom('auditLogs').select('id').where('actorId', '=', userId).where('action', '=', action).execute()).length;

const statuses = (responses: Array<{ statusCode: number }>) => {
  const by: Record<number, number> = {};
  for (const r of responses) by[r.statusCode] = (by[r.statusCode] ?? 0) + 1;
  return by;
};

/** A signed-in admin whose method is email (setup done), and the code mailed for their next action. */
async function emailUser(name: string): Promise<{ acct: Account; c: Client }> {
  const acct = await createOrgWithAdmin(t, name);
  const c = await signInWithEmailCode(t, acct);
  const before = t.sink.messages.length;
  await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' });
  await waitForCount(t.sink, before + 1);
  const enabled = await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: await t.sink.lastCode(acct.email) });
  expect(enabled.json().message).toBe(MSG.emailEnabled);
  return { acct, c };
}

async function actionCode(acct: Account, c: Client): Promise<string> {
  const before = t.sink.messages.length;
  expect((await c.post('/_api/auth/mfa-email', { userId: acct.userId })).statusCode).toBe(200);
  await waitForCount(t.sink, before + 1);
  return t.sink.lastCode(acct.email);
}

const wrongFor = (right: string) => (right === '000000' ? '111111' : '000000');

describe('second factor at sign-in', () => {
  it('checks at most five codes of one pending sign-in, even from 200 concurrent guesses', async () => {
    const acct = await createOrgWithAdmin(t, 'Burst LLP');
    const c = new Client(t.app, '10.9.0.1');
    const { userId } = (await c.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password })).json();
    const before = t.sink.messages.length;
    expect((await c.post('/_api/auth/mfa-email', { userId })).statusCode).toBe(200);
    await waitForCount(t.sink, before + 1);
    const code = await t.sink.lastCode(acct.email);

    const burst = await Promise.all(
      Array.from({ length: 200 }, () => c.post('/_api/auth/mfa-verify-email', { userId, token: wrongFor(code) })),
    );
    expect(burst.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    // Each checked code leaves one audit entry: never more than five for one pending sign-in.
    expect(await auditCount(acct.userId, 'MFA_VERIFICATION_FAILED')).toBeLessThanOrEqual(5);
    expect(burst.filter((r) => r.json().error === MSG.invalidCode).length).toBeLessThanOrEqual(4);
    // The right code no longer signs in: the pending sign-in has ended.
    const late = await c.post('/_api/auth/mfa-verify-email', { userId, token: code });
    expect(late.statusCode).toBe(401);
    expect(c.cookies.has('sr_session')).toBe(false);
  });

  it('counts wrong codes per user across pending sign-ins, and a correct password does not reset the count', async () => {
    const acct = await createOrgWithAdmin(t, 'Spread LLP');
    const secret = await enrollTotp(await signInWithEmailCode(t, acct));
    const wrong = () => {
      const right = [currentTotp(secret), nextTotp(secret), nextTotp(secret, -1)];
      return ['000000', '111111', '222222', '333333'].find((x) => !right.includes(x))!;
    };
    // Ten wrong codes spread over four password steps (at most three per pending sign-in).
    let sent = 0;
    for (let step = 0; step < 4 && sent < 10; step++) {
      const c = new Client(t.app, '10.9.0.2');
      const login = await c.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password });
      expect(login.statusCode).toBe(200);
      for (let i = 0; i < 3 && sent < 10; i++, sent++) {
        const r = await c.post('/_api/auth/mfa-verify-totp', { userId: acct.userId, token: wrong() });
        expect(r.statusCode).toBe(401);
      }
    }
    expect(sent).toBe(10);
    // A fresh password step still succeeds, but the right code is refused for the lockout period.
    const c = new Client(t.app, '10.9.0.2');
    expect((await c.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password })).statusCode).toBe(200);
    const locked = await c.post('/_api/auth/mfa-verify-totp', { userId: acct.userId, token: nextTotp(secret) });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', error: MSG.mfaLocked });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect(c.cookies.has('sr_session')).toBe(false);
    // The user is told by mail and the lockout is in the audit log.
    const notice = await t.sink.waitFor(acct.email, { subjectIncludes: 'too many incorrect codes' });
    expect(notice.text).toContain('10 incorrect verification codes');
    expect(await auditCount(acct.userId, 'MFA_VERIFICATION_LOCKED')).toBe(1);
  });
});

describe('second factor when signed in', () => {
  it('checks at most five of 30 concurrent wrong system MFA codes', async () => {
    const { acct, c } = await emailUser('Concurrent Sys LLP');
    const code = await actionCode(acct, c);
    const burst = await Promise.all(
      Array.from({ length: 30 }, () => c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_SETTINGS', mfaToken: wrongFor(code) })),
    );
    const by = statuses(burst);
    expect(by[401] ?? 0).toBeLessThanOrEqual(5);
    expect((by[401] ?? 0) + (by[429] ?? 0)).toBe(30);
    expect(await auditCount(acct.userId, 'MFA_VERIFICATION_FAILED')).toBeLessThanOrEqual(5);
    // Locked now: even the right code is refused, and the user was told.
    expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_SETTINGS', mfaToken: code })).statusCode).toBe(429);
    await t.sink.waitFor(acct.email, { subjectIncludes: 'too many incorrect codes' });
    expect(await auditCount(acct.userId, 'MFA_VERIFICATION_LOCKED')).toBe(1);
  });

  it('checks at most five of 30 concurrent wrong step-up codes on a sensitive action', async () => {
    const { acct, c } = await emailUser('Concurrent StepUp LLP');
    const code = await actionCode(acct, c);
    const burst = await Promise.all(
      Array.from({ length: 30 }, () =>
        c.post('/_api/settings/users/invite', { email: uniqueEmail('burst'), role: 'user', mfaToken: wrongFor(code) }),
      ),
    );
    const by = statuses(burst);
    expect(by[401] ?? 0).toBeLessThanOrEqual(5);
    expect((by[401] ?? 0) + (by[429] ?? 0)).toBe(30);
    expect(await t.ctx.db.selectFrom('invitations').select('id').where('organizationId', '=', acct.organizationId).execute()).toHaveLength(
      0,
    );
  });

  it('a right code gives its attempt back, so normal use never locks anyone', async () => {
    const { acct, c } = await emailUser('Steady LLP');
    for (let i = 0; i < 6; i++) {
      // Each new code needs the 30-second resend gap to pass; move the previous one back instead of waiting.
      await t.ctx.db
        .updateTable('mfaEmailCodes')
        .set({ createdAt: new Date(Date.now() - 60_000) })
        .where('userId', '=', acct.userId)
        .execute();
      const code = await actionCode(acct, c);
      expect((await c.post('/_api/auth/verifySystemMfa', { operation: 'VIEW_ARCHIVAL_STATS', mfaToken: code })).statusCode).toBe(200);
    }
  });
});

describe('system MFA tokens are scoped to a risk class', () => {
  it('a token issued for viewing statistics cannot invite an admin; one for user management can', async () => {
    const { acct, c } = await emailUser('Scope LLP');
    const stats = await c.post('/_api/auth/verifySystemMfa', { operation: 'VIEW_ARCHIVAL_STATS', mfaToken: await actionCode(acct, c) });
    expect(stats.statusCode).toBe(200);
    const refused = await c.post('/_api/settings/users/invite', {
      email: uniqueEmail('boss'),
      role: 'admin',
      mfaToken: stats.json().systemMfaToken,
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'MFA_INVALID', error: MSG.invalidCode });

    await t.ctx.db
      .updateTable('mfaEmailCodes')
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where('userId', '=', acct.userId)
      .execute();
    const people = await c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_USER_MANAGEMENT', mfaToken: await actionCode(acct, c) });
    const email = uniqueEmail('boss');
    const ok = await c.post('/_api/settings/users/invite', { email, role: 'admin', mfaToken: people.json().systemMfaToken });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().invitation).toMatchObject({ email, role: 'admin' });
  });
});

describe('TOTP secrets at rest', () => {
  it('stores the secret encrypted, and sign-in with the authenticator still works', async () => {
    const acct = await createOrgWithAdmin(t, 'Cipher LLP');
    const secret = await enrollTotp(await signInWithEmailCode(t, acct));
    const row = await t.ctx.db
      .selectFrom('users')
      .select(['totpSecret', 'totpPendingSecret'])
      .where('id', '=', acct.userId)
      .executeTakeFirstOrThrow();
    expect(row.totpSecret).toMatch(/^v1:/);
    expect(row.totpSecret).not.toContain(secret);
    expect(row.totpPendingSecret).toBeNull();
    const keyFile = path.join(t.dataDir, MFA_KEY_FILE);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);

    const c = new Client(t.app);
    await c.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password });
    const ok = await c.post('/_api/auth/mfa-verify-totp', { userId: acct.userId, token: nextTotp(secret) });
    expect(ok.statusCode).toBe(200);
  });

  it('keeps a pending secret encrypted too', async () => {
    const acct = await createOrgWithAdmin(t, 'Pending Cipher LLP');
    const c = await signInWithEmailCode(t, acct);
    const { secret } = (await c.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' })).json();
    const row = await t.ctx.db.selectFrom('users').select('totpPendingSecret').where('id', '=', acct.userId).executeTakeFirstOrThrow();
    expect(row.totpPendingSecret).toMatch(/^v1:/);
    expect(row.totpPendingSecret).not.toContain(secret);
  });

  it('reads a secret stored in plain form before encryption, and encrypts it at its next use', async () => {
    const acct = await createOrgWithAdmin(t, 'Legacy LLP');
    const secret = await enrollTotp(await signInWithEmailCode(t, acct));
    await t.ctx.db.updateTable('users').set({ totpSecret: secret }).where('id', '=', acct.userId).execute();
    const c = new Client(t.app);
    await c.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password });
    expect((await c.post('/_api/auth/mfa-verify-totp', { userId: acct.userId, token: nextTotp(secret) })).statusCode).toBe(200);
    const row = await t.ctx.db.selectFrom('users').select('totpSecret').where('id', '=', acct.userId).executeTakeFirstOrThrow();
    expect(row.totpSecret).toMatch(/^v1:/);
    expect(row.totpSecret).not.toContain(secret);
  });

  it('a secret moved to another user row does not decrypt there', async () => {
    const a = await createOrgWithAdmin(t, 'Swap A LLP');
    const b = await createOrgWithAdmin(t, 'Swap B LLP');
    const secretA = await enrollTotp(await signInWithEmailCode(t, a));
    await enrollTotp(await signInWithEmailCode(t, b));
    const rowA = await t.ctx.db.selectFrom('users').select('totpSecret').where('id', '=', a.userId).executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('users').set({ totpSecret: rowA.totpSecret }).where('id', '=', b.userId).execute();
    const c = new Client(t.app);
    await c.post('/_api/auth/login_with_password', { email: b.email, password: b.password });
    const r = await c.post('/_api/auth/mfa-verify-totp', { userId: b.userId, token: nextTotp(secretA, 2) });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ error: MSG.mfaConfigError, code: 'INTERNAL_ERROR' });
    expect(c.cookies.has('sr_session')).toBe(false);
  });
});
