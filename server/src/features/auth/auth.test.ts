import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import {
  API,
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
import { verifyChain } from '../../shared/audit.js';
import { currentTotp } from '../mfa/index.js';

let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createOrgWithAdmin(t);
});
afterAll(() => t.shutdown());

const auditActions = async (organizationId: string | null) =>
  (
    await t.ctx.db
      .selectFrom('auditLogs')
      .select('action')
      .where('organizationId', organizationId === null ? 'is' : '=', organizationId as never)
      .orderBy('id')
      .execute()
  ).map((r) => r.action);

describe('password step', () => {
  it('answers userId and email and sets only a pending cookie, never a session', async () => {
    const c = new Client(t.app);
    const res = await c.post('/_api/auth/login_with_password', { email: admin.email.toUpperCase(), password: admin.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ userId: admin.userId, email: admin.email });
    expect(c.cookies.has('sr_pending')).toBe(true);
    expect(c.cookies.has('sr_session')).toBe(false);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect((await c.get('/_api/auth/session', API)).statusCode).toBe(401);
  });

  it('gives the same answer for an unknown address and a wrong password', async () => {
    const c = new Client(t.app, '10.0.0.9');
    const unknown = await c.post('/_api/auth/login_with_password', { email: 'nobody@firm.test', password: 'whatever1' });
    const wrong = await c.post('/_api/auth/login_with_password', { email: admin.email, password: 'wrong password' });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().error).toBe(MSG.invalidCredentials);
    expect(await auditActions(admin.organizationId)).toContain('USER_LOGIN_FAILED');
    expect(await auditActions(null)).toContain('USER_LOGIN_FAILED');
  });

  it('validates with the published messages and refuses unknown fields', async () => {
    const c = new Client(t.app);
    expect((await c.post('/_api/auth/login_with_password', { email: 'not-an-email', password: 'x' })).json().error).toBe(
      'Email is required',
    );
    expect((await c.post('/_api/auth/login_with_password', { email: admin.email, password: '' })).json().error).toBe(
      'Password is required',
    );
    const extra = await c.post('/_api/auth/login_with_password', { email: admin.email, password: 'x', role: 'admin' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error).toBe('Unrecognized field(s): role.');
  });

  it('refuses a form post and a text body (JSON only) and a cross-site origin', async () => {
    const form = await t.app.inject({
      method: 'POST',
      url: '/_api/auth/login_with_password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a@b.c&password=x',
    });
    expect(form.statusCode).toBe(415);
    const text = await t.app.inject({
      method: 'POST',
      url: '/_api/auth/login_with_password',
      headers: { 'content-type': 'text/plain' },
      payload: '{"email":"a@b.c","password":"x"}',
    });
    expect(text.statusCode).toBe(415);
    const cross = await t.app.inject({
      method: 'POST',
      url: '/_api/auth/login_with_password',
      headers: { origin: 'https://evil.example' },
      payload: { email: admin.email, password: admin.password },
    });
    expect(cross.statusCode).toBe(403);
    expect(cross.json().code).toBe('FORBIDDEN_ORIGIN');
  });

  it('locks an account for a cooling-off period after 10 failed attempts', async () => {
    const victim = await createOrgWithAdmin(t, 'Locked LLP');
    const c = new Client(t.app, '10.0.0.2');
    for (let i = 0; i < 10; i++) {
      const r = await c.post('/_api/auth/login_with_password', { email: victim.email, password: `wrong-${i}` });
      expect(r.statusCode).toBe(401);
    }
    const locked = await new Client(t.app, '10.0.0.3').post('/_api/auth/login_with_password', {
      email: victim.email,
      password: victim.password,
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('RATE_LIMIT_EXCEEDED');
    expect(locked.headers['retry-after']).toBeDefined();
  });

  it('locks an address that tries many accounts', async () => {
    const c = new Client(t.app, '10.0.0.77');
    for (let i = 0; i < 50; i++) await c.post('/_api/auth/login_with_password', { email: `spray${i}@firm.test`, password: 'password1' });
    const r = await c.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password });
    expect(r.statusCode).toBe(429);
  });
});

describe('second factor', () => {
  it('works only for the browser that passed the password step', async () => {
    const a = new Client(t.app);
    const login = await a.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password });
    const { userId } = login.json();
    const stranger = new Client(t.app);
    const r = await stranger.post('/_api/auth/mfa-challenge', { userId });
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toBe(MSG.pendingLoginMissing);
    // The pending sign-in is bound to its user: another id is refused too.
    expect((await a.post('/_api/auth/mfa-challenge', { userId: userId + 1000 })).statusCode).toBe(401);
    const ok = await a.post('/_api/auth/mfa-challenge', { userId });
    expect(ok.json()).toEqual({ availableMethods: ['email'], preferredMethod: 'email' });
  });

  it('validates userId and code formats', async () => {
    const c = new Client(t.app);
    expect((await c.post('/_api/auth/mfa-challenge', { userId: -1 })).json().error).toBe(MSG.userIdPositive);
    expect((await c.post('/_api/auth/mfa-challenge', { userId: 'x' })).json().error).toBe(MSG.userIdPositive);
    expect((await c.post('/_api/auth/mfa-verify-totp', { userId: 1, token: '123' })).json().error).toBe(MSG.codeSixDigits);
    expect((await c.post('/_api/auth/mfa-verify-totp', { userId: 1, token: '12345a' })).json().error).toBe(MSG.codeNumeric);
    expect((await c.post('/_api/auth/mfa-verify-email', { userId: 1, token: '12' })).json().error).toBe(MSG.verificationCodeSixDigits);
    expect((await c.post('/_api/auth/mfa-verify-email', { userId: 1, token: 'abcdef' })).json().error).toBe(MSG.mfaTokenNumeric);
  });

  it('signs in with an emailed code that works once, and the session shows the setup wall flag', async () => {
    const c = new Client(t.app);
    const { userId } = (await c.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password })).json();
    const before = t.sink.messages.length;
    const sent = await c.post('/_api/auth/mfa-email', { userId });
    expect(sent.json()).toEqual({ success: true, message: MSG.emailCodeSent });
    await waitForCount(t.sink, before + 1);
    const code = await t.sink.lastCode(admin.email);
    const again = await c.post('/_api/auth/mfa-email', { userId });
    expect(again.statusCode).toBe(429);
    const ok = await c.post('/_api/auth/mfa-verify-email', { userId, token: code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(MSG.loginVerified);
    expect(ok.json().user).toMatchObject({ id: admin.userId, role: 'admin', mfaSetupRequired: true, organizationId: admin.organizationId });
    expect(c.cookies.has('sr_session')).toBe(true);
    expect(c.cookies.has('sr_pending')).toBe(false);
    const session = await c.get('/_api/auth/session', API);
    expect(session.statusCode).toBe(200);
    expect(session.json().apiVersion).toEqual({ server: 'v1.0.0', status: 'compatible' });
    // The code cannot be used a second time, even with a new password step.
    const c2 = new Client(t.app);
    await c2.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password });
    expect((await c2.post('/_api/auth/mfa-verify-email', { userId, token: code })).statusCode).toBe(401);
    expect(await auditActions(admin.organizationId)).toEqual(
      expect.arrayContaining(['LOGIN_PASSWORD_VERIFIED', 'MFA_EMAIL_CODE_SENT', 'USER_LOGIN_MFA_EMAIL_SUCCESS']),
    );
  });

  it('ends the pending sign-in after five wrong codes', async () => {
    const c = new Client(t.app);
    const { userId } = (await c.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password })).json();
    for (let i = 0; i < 4; i++) {
      const r = await c.post('/_api/auth/mfa-verify-email', { userId, token: '000000' });
      expect(r.json()).toEqual({ error: MSG.invalidCode, code: 'UNAUTHENTICATED' });
      expect(c.cookies.has('sr_pending')).toBe(true);
    }
    const fifth = await c.post('/_api/auth/mfa-verify-email', { userId, token: '000000' });
    expect(fifth.json()).toEqual({ error: MSG.pendingLoginLocked, code: 'UNAUTHENTICATED', details: { reason: 'SIGN_IN_ENDED' } });
    // The ended sign-in's cookie goes with it; the password step starts again.
    expect(c.cookies.has('sr_pending')).toBe(false);
    expect((await c.post('/_api/auth/mfa-challenge', { userId })).statusCode).toBe(401);
  });

  it('prefers TOTP once enrolled, and refuses a replayed TOTP code', async () => {
    const email = uniqueEmail('totp');
    const acct = await createOrgWithAdmin(t, 'Totp LLP');
    const c = await signInWithEmailCode(t, acct);
    const secret = await enrollTotp(c);
    const session = (await c.get('/_api/auth/session', API)).json();
    expect(session.user).toMatchObject({ mfaSetupRequired: false, mfaEnabled: true, mfaPrimaryMethod: 'totp' });

    const b = new Client(t.app);
    const { userId } = (await b.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password })).json();
    expect((await b.post('/_api/auth/mfa-challenge', { userId })).json()).toEqual({ availableMethods: ['totp'], preferredMethod: 'totp' });
    // The code used at enrolment is spent.
    const replay = await b.post('/_api/auth/mfa-verify-totp', { userId, token: currentTotp(secret) });
    expect(replay.statusCode).toBe(401);
    const ok = await b.post('/_api/auth/mfa-verify-totp', { userId, token: nextTotp(secret) });
    expect(ok.statusCode).toBe(200);
    const b2 = new Client(t.app);
    await b2.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password });
    expect((await b2.post('/_api/auth/mfa-verify-totp', { userId, token: nextTotp(secret) })).statusCode).toBe(401);
    // An email code is not a second factor for a TOTP user.
    expect((await b2.post('/_api/auth/mfa-email', { userId })).statusCode).toBe(400);
    expect(email).toContain('@');
  });
});

describe('session', () => {
  it('answers the error catalogue: no cookie, unknown session, version checks', async () => {
    const anon = new Client(t.app);
    const none = await anon.get('/_api/auth/session', API);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: MSG.notAuthenticated, code: 'UNAUTHENTICATED' });
    anon.cookies.set('sr_session', 'forged-token');
    const forged = await anon.get('/_api/auth/session', API);
    expect(forged.json()).toMatchObject({ error: MSG.sessionNotFound, code: 'SESSION_NOT_FOUND' });

    const c = await signInWithEmailCode(t, admin);
    expect((await c.get('/_api/auth/session', { 'x-api-version': 'v2.0.0' })).json()).toMatchObject({
      code: 'API_VERSION_MISMATCH',
      error: MSG.apiVersionMismatch,
    });
    expect((await c.get('/_api/auth/session', { 'x-api-version': 'v1.1.0' })).json().code).toBe('API_VERSION_MISMATCH');
    expect((await c.get('/_api/auth/session', { 'x-api-version': 'v1.0.0' })).json().apiVersion.status).toBe('compatible');
  });

  it('reports the real expiry and ends at logout', async () => {
    const c = await signInWithEmailCode(t, admin);
    const s = (await c.get('/_api/auth/session', API)).json();
    const expires = new Date(s.session.expiresAt).getTime();
    expect(expires).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000);
    expect(s.session.idleTimeoutSeconds).toBe(1800);
    const token = c.cookies.get('sr_session')!;
    const out = await c.post('/_api/auth/logout');
    expect(out.json()).toEqual({ success: true });
    const reuse = new Client(t.app);
    reuse.cookies.set('sr_session', token);
    expect((await reuse.get('/_api/auth/session', API)).json().code).toBe('SESSION_NOT_FOUND');
    expect(await auditActions(admin.organizationId)).toContain('USER_LOGOUT');
  });

  it('stores only a hash of the session token and rotates it at every sign-in', async () => {
    const a = await signInWithEmailCode(t, admin);
    const b = await signInWithEmailCode(t, admin);
    const ta = a.cookies.get('sr_session')!;
    const tb = b.cookies.get('sr_session')!;
    expect(ta).not.toBe(tb);
    const rows = await t.ctx.db.selectFrom('sessions').select('tokenHash').execute();
    expect(rows.some((r) => r.tokenHash === ta || r.tokenHash === tb)).toBe(false);
  });

  it('ends after the idle timeout', async () => {
    const c = await signInWithEmailCode(t, admin);
    await t.ctx.db
      .updateTable('sessions')
      .set({ idleExpiresAt: new Date(Date.now() - 1000) })
      .where('userId', '=', admin.userId)
      .execute();
    expect((await c.get('/_api/auth/session', API)).json().code).toBe('SESSION_NOT_FOUND');
  });

  it('keeps the audit chain whole', async () => {
    expect(await verifyChain(t.ctx.db, admin.organizationId)).toMatchObject({ ok: true });
    await t.ctx.db
      .updateTable('auditLogs')
      .set({ details: JSON.stringify({ tampered: true }) })
      .where('organizationId', '=', admin.organizationId)
      .where('action', '=', 'LOGIN_PASSWORD_VERIFIED')
      .execute();
    expect(await verifyChain(t.ctx.db, admin.organizationId)).toMatchObject({ ok: false, reason: 'entry altered' });
  });
});
