import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import {
  API,
  Client,
  createOrgWithAdmin,
  createTestApp,
  enrollTotp,
  signInWithEmailCode,
  type Account,
  type TestApp,
} from '../../../test/helpers.js';

// What the session guard answers for routes that declare their need in `config.auth`.

let t: TestApp;
let admin: Account;

const SETUP_WALL = 'Set up multi-factor authentication to continue.';
const password = { currentPassword: 'not the password', newPassword: 'another good password', confirmPassword: 'another good password' };
const invite = { email: 'someone@firm.test', role: 'user' };
const systemMfa = { operation: 'VIEW_ARCHIVAL_STATS', mfaToken: '123456' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await createOrgWithAdmin(t);
});
afterAll(async () => t?.shutdown());

async function sessionRow(userId: number) {
  return t.ctx.db
    .selectFrom('sessions')
    .selectAll()
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .orderBy('createdAt', 'desc')
    .executeTakeFirstOrThrow();
}

describe('the session guard', () => {
  it('refuses a caller without a session cookie on every guarded route, after checking the input', async () => {
    const c = new Client(t.app);
    const calls = [
      () => c.get('/_api/auth/session', API),
      () => c.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' }),
      () => c.post('/_api/settings/password', password),
      () => c.post('/_api/settings/users/invite', invite),
      () => c.post('/_api/auth/verifySystemMfa', systemMfa),
    ];
    for (const call of calls) {
      const r = await call();
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ error: MSG.notAuthenticated, code: 'UNAUTHENTICATED' });
    }
    // A malformed body is a 400 whoever sends it: the guard runs after validation.
    const bad = await c.post('/_api/settings/password', {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
  });

  it('answers a cookie without a live session with SESSION_NOT_FOUND and clears the cookie', async () => {
    const c = new Client(t.app);
    c.cookies.set('sr_session', 'no-such-session');
    const r = await c.post('/_api/settings/password', password);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ error: MSG.sessionNotFound, code: 'SESSION_NOT_FOUND' });
    expect(c.cookies.has('sr_session')).toBe(false);
  });

  it('holds a user who must still set up MFA at the setup wall: the session and the MFA set-up calls only', async () => {
    const account = await createOrgWithAdmin(t, 'Wall LLP');
    const c = await signInWithEmailCode(t, account);
    const session = await c.get('/_api/auth/session', API);
    expect(session.statusCode).toBe(200);
    expect(session.json().user.mfaSetupRequired).toBe(true);
    expect((await c.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' })).statusCode).toBe(200);
    for (const r of [
      await c.post('/_api/settings/password', password),
      await c.post('/_api/settings/users/invite', invite),
      await c.post('/_api/auth/verifySystemMfa', systemMfa),
    ]) {
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ error: SETUP_WALL, code: 'PERMISSION_ERROR' });
    }
    await enrollTotp(c);
    const past = await c.post('/_api/settings/password', password);
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe(MSG.currentPasswordWrong);
  });

  it('extends the idle limit on activity, but not when the client only reads the session', async () => {
    const c = await signInWithEmailCode(t, admin);
    await enrollTotp(c);
    const soon = new Date(Date.now() + 5 * 60_000);
    const { id } = await sessionRow(admin.userId);
    await t.ctx.db
      .updateTable('sessions')
      .set({ idleExpiresAt: soon, lastSeenAt: new Date(Date.now() - 60_000) })
      .where('id', '=', id)
      .execute();

    const read = await c.get('/_api/auth/session', API);
    expect(read.statusCode).toBe(200);
    expect(read.json().session.expiresAt).toBe(soon.toISOString());
    expect((await sessionRow(admin.userId)).idleExpiresAt.getTime()).toBe(soon.getTime());

    expect((await c.post('/_api/settings/password', password)).statusCode).toBe(400);
    const extended = (await sessionRow(admin.userId)).idleExpiresAt.getTime();
    expect(extended).toBeGreaterThan(Date.now() + (t.config.session.idleMinutes - 1) * 60_000);
    expect((await c.get('/_api/auth/session', API)).json().session.expiresAt).toBe(new Date(extended).toISOString());
  });

  it('lets anyone log out: a dead cookie ends nothing, a live one ends its session', async () => {
    const stranger = new Client(t.app);
    stranger.cookies.set('sr_session', 'no-such-session');
    const before = await t.ctx.db
      .selectFrom('auditLogs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('action', '=', 'USER_LOGOUT')
      .executeTakeFirstOrThrow();
    const r = await stranger.post('/_api/auth/logout');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ success: true });
    const after = await t.ctx.db
      .selectFrom('auditLogs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('action', '=', 'USER_LOGOUT')
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);

    const account = await createOrgWithAdmin(t, 'Leaving LLP');
    const c = await signInWithEmailCode(t, account);
    const { id } = await sessionRow(account.userId);
    expect((await c.post('/_api/auth/logout')).json()).toEqual({ success: true });
    const ended = await t.ctx.db.selectFrom('sessions').select(['revokedReason']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(ended.revokedReason).toBe('logout');
    expect((await c.get('/_api/auth/session', API)).statusCode).toBe(401);
  });
});
