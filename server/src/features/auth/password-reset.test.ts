import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '@strongroom/contracts';
import {
  API,
  Client,
  createOrgWithAdmin,
  createTestApp,
  signInWithEmailCode,
  waitForCount,
  type Account,
  type TestApp,
} from '../../../test/helpers.js';
import { PASSWORD_RESET_MAIL_JOB } from './password-reset.service.js';

let t: TestApp;
let admin: Account;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createOrgWithAdmin(t);
});
afterAll(() => t.shutdown());

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('password reset', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const c = new Client(t.app);
    const before = t.sink.messages.length;
    const unknown = await c.post('/_api/auth/password-reset', { email: 'ghost@firm.test' });
    const known = await c.post('/_api/auth/password-reset', { email: admin.email });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json().message).toBe(MSG.resetRequested);
    // Both jobs ran to completion (the known address's mail is in the sink once its job is done), so the
    // unknown address's job has had its turn and sent nothing.
    await vi.waitFor(async () => expect(await t.ctx.jobs.pendingCount(PASSWORD_RESET_MAIL_JOB)).toBe(0), { timeout: 5000, interval: 25 });
    expect(t.sink.messages.slice(before).map((m) => m.to[0])).toEqual([admin.email]);
  });

  it('validates input with the published messages', async () => {
    const c = new Client(t.app);
    expect((await c.post('/_api/auth/password-reset', { email: 'nope' })).json().error).toBe(MSG.validEmail);
    expect((await c.post('/_api/auth/password-reset-verify', { token: '', newPassword: 'longenough' })).json().error).toBe(
      MSG.resetTokenRequired,
    );
    expect((await c.post('/_api/auth/password-reset-verify', { token: 'x', newPassword: 'short' })).json().error).toBe(
      MSG.passwordMin8Long,
    );
    expect((await c.post('/_api/auth/password-reset-verify', { token: 'x', newPassword: 'a'.repeat(101) })).json().error).toBe(
      MSG.passwordMax100Long,
    );
    const bad = await c.post('/_api/auth/password-reset-verify', { token: 'not-a-real-token', newPassword: 'new password 1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MSG.resetTokenInvalid);
  });

  it('sets the new password once, ends every session, and only the newest link works', async () => {
    const session = await signInWithEmailCode(t, admin);
    const c = new Client(t.app);
    const start = t.sink.messages.length;
    await c.post('/_api/auth/password-reset', { email: admin.email });
    await waitForCount(t.sink, start + 1);
    const first = tokenOf(await t.sink.lastLink(admin.email, '/password-reset'));
    const before = t.sink.messages.length;
    await c.post('/_api/auth/password-reset', { email: admin.email });
    await waitForCount(t.sink, before + 1);
    const second = tokenOf(await t.sink.lastLink(admin.email, '/password-reset'));
    expect(second).not.toBe(first);
    expect((await c.post('/_api/auth/password-reset-verify', { token: first, newPassword: 'a brand new secret' })).statusCode).toBe(400);
    const ok = await c.post('/_api/auth/password-reset-verify', { token: second, newPassword: 'a brand new secret' });
    expect(ok.json()).toEqual({ success: true, message: MSG.resetSuccess });
    expect((await c.post('/_api/auth/password-reset-verify', { token: second, newPassword: 'another secret 2' })).statusCode).toBe(400);
    expect((await session.get('/_api/auth/session', API)).json().code).toBe('SESSION_NOT_FOUND');
    expect((await c.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password })).statusCode).toBe(401);
    expect((await c.post('/_api/auth/login_with_password', { email: admin.email, password: 'a brand new secret' })).statusCode).toBe(200);
    const actions = (
      await t.ctx.db.selectFrom('auditLogs').select('action').where('organizationId', '=', admin.organizationId).execute()
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['PASSWORD_RESET_REQUESTED', 'PASSWORD_RESET_COMPLETED']));
  });

  it('expires links after an hour', async () => {
    const c = new Client(t.app);
    const before = t.sink.messages.length;
    await c.post('/_api/auth/password-reset', { email: admin.email });
    await waitForCount(t.sink, before + 1);
    const token = tokenOf(await t.sink.lastLink(admin.email, '/password-reset'));
    await t.ctx.db
      .updateTable('passwordResetTokens')
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where('usedAt', 'is', null)
      .execute();
    expect((await c.post('/_api/auth/password-reset-verify', { token, newPassword: 'too late now' })).json().error).toBe(
      MSG.resetTokenInvalid,
    );
  });
});
