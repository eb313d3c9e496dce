import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, MSG } from '@strongroom/contracts';
import { createSession } from '../sessions/index.js';
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

let t: TestApp;
let admin: Account;
let adminClient: Client;
let secret: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createOrgWithAdmin(t);
  adminClient = await signInWithEmailCode(t, admin);
  secret = await enrollTotp(adminClient);
  // Each test that needs a fresh code turns MFA for user management off or uses a system token.
});
afterAll(() => t.shutdown());

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function systemToken(c: Client, code: string): Promise<string> {
  const r = await c.post('/_api/auth/verifySystemMfa', { operation: 'MFA_USER_MANAGEMENT', mfaToken: code });
  expect(r.statusCode).toBe(200);
  return r.json().systemMfaToken;
}

describe('invitations', () => {
  let sysToken: string;

  it('asks for a fresh second factor when the organization requires it, then accepts the code', async () => {
    const email = uniqueEmail('colleague');
    const first = await adminClient.post('/_api/settings/users/invite', { email, role: 'user' });
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({
      code: 'MFA_REQUIRED',
      mfaRequired: true,
      details: { operation: 'MFA_USER_MANAGEMENT', availableMethods: ['totp'], mfaMethod: 'totp' },
    });
    const wrong = await adminClient.post('/_api/settings/users/invite', { email, role: 'user', mfaToken: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'MFA_INVALID', error: MSG.invalidCode });
    sysToken = await systemToken(adminClient, nextTotp(secret));
    const ok = await adminClient.post('/_api/settings/users/invite', { email, role: 'user', mfaToken: sysToken });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, message: MSG.inviteSent(email), invitation: { email, role: 'user' } });
    const link = await t.sink.lastLink(email, '/accept-invitation');
    expect(link.startsWith('http://localhost:3000/accept-invitation?token=')).toBe(true);
  });

  it('a system MFA token works for 30 minutes and only in its own session', async () => {
    const other = new Client(t.app);
    const user = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', admin.userId).executeTakeFirstOrThrow();
    const { token } = await t.ctx.db.transaction().execute((trx) => createSession(t.ctx, trx, user, { ip: '127.0.0.1', userAgent: null }));
    other.cookies.set('sr_session', token);
    const r = await other.post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'user', mfaToken: sysToken });
    expect(r.json().code).toBe('MFA_INVALID');
    await t.ctx.db
      .updateTable('systemMfaTokens')
      .set({ expiresAt: new Date(Date.now() - 1) })
      .execute();
    const expired = await adminClient.post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'user', mfaToken: sysToken });
    expect(expired.json().code).toBe('MFA_INVALID');
    await t.ctx.db
      .updateTable('systemMfaTokens')
      .set({ expiresAt: new Date(Date.now() + 30 * 60_000) })
      .execute();
  });

  it('validates the invite body', async () => {
    expect((await adminClient.post('/_api/settings/users/invite', { email: 'x', role: 'user', mfaToken: sysToken })).json().error).toBe(
      MSG.validEmail,
    );
    expect(
      (await adminClient.post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'owner', mfaToken: sysToken })).json().error,
    ).toBe(MSG.inviteRoleInvalid);
    expect(
      (
        await adminClient.post('/_api/settings/users/invite', {
          email: uniqueEmail(),
          role: 'user',
          mfaToken: sysToken,
          organizationId: 'x',
        })
      ).statusCode,
    ).toBe(400);
    expect((await new Client(t.app).post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'user' })).statusCode).toBe(401);
    const dup = await adminClient.post('/_api/settings/users/invite', { email: admin.email, role: 'user', mfaToken: sysToken });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: MSG.inviteAlreadyMember, code: 'CONFLICT_ERROR', details: { reason: 'ALREADY_MEMBER' } });
  });

  it('verifies and accepts once, creating the account with the role defaults', async () => {
    const email = uniqueEmail('guest');
    await adminClient.post('/_api/settings/users/invite', { email, role: 'guest', mfaToken: sysToken });
    const token = tokenOf(await t.sink.lastLink(email, '/accept-invitation'));
    const anon = new Client(t.app);
    expect((await anon.post('/_api/auth/invitation-verify', { token })).json()).toEqual({ organizationName: 'Acme LLP', email });
    expect((await anon.post('/_api/auth/invitation-verify', { token: '' })).json().error).toBe(MSG.invitationTokenRequired);
    expect((await anon.post('/_api/auth/invitation-accept', { token, fullName: 'G', password: 'longenough' })).json().error).toBe(
      MSG.fullNameMin,
    );
    expect((await anon.post('/_api/auth/invitation-accept', { token, fullName: 'Gus Guest', password: 'short' })).json().error).toBe(
      MSG.passwordMin8,
    );
    const ok = await anon.post('/_api/auth/invitation-accept', { token, fullName: 'Gus Guest', password: 'guest password' });
    expect(ok.json()).toEqual({ success: true, message: MSG.invitationWelcome });
    const again = await anon.post('/_api/auth/invitation-accept', { token, fullName: 'Gus Guest', password: 'guest password' });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe(MSG.invitationInvalid);
    expect((await anon.post('/_api/auth/invitation-verify', { token })).statusCode).toBe(404);

    const guest = await signInWithEmailCode(t, { email, password: 'guest password' });
    const s = (await guest.get('/_api/auth/session', API)).json();
    expect(s.user).toMatchObject({
      role: 'guest',
      permissions: DEFAULT_PERMISSIONS.guest,
      organizationId: admin.organizationId,
      mfaSetupRequired: true,
    });
  });

  it('lets users with canInviteUsers invite, never an admin, and refuses plain users and guests', async () => {
    await t.ctx.db
      .updateTable('featureFlags')
      .set({ enabled: false })
      .where('organizationId', '=', admin.organizationId)
      .where('flagName', '=', 'MFA_USER_MANAGEMENT')
      .execute();
    const email = uniqueEmail('member');
    await adminClient.post('/_api/settings/users/invite', { email, role: 'user' });
    const token = tokenOf(await t.sink.lastLink(email, '/accept-invitation'));
    await new Client(t.app).post('/_api/auth/invitation-accept', { token, fullName: 'Max Member', password: 'member password' });
    const member = await signInWithEmailCode(t, { email, password: 'member password' });
    await member.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' });
    const code = await t.sink.lastCode(email);
    expect((await member.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: code })).json().message).toBe(
      MSG.emailEnabled,
    );

    const refused = await member.post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'guest' });
    expect(refused.statusCode).toBe(403);
    await t.ctx.db
      .updateTable('users')
      .set({ permissions: JSON.stringify({ ...DEFAULT_PERMISSIONS.user, canInviteUsers: true }) })
      .where('email', '=', email)
      .execute();
    expect((await member.post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'guest' })).statusCode).toBe(200);
    const adminInvite = await member.post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'admin' });
    expect(adminInvite.statusCode).toBe(403);
    expect(adminInvite.json().error).toBe(MSG.inviteAdminOnly);
  });

  it("keeps organizations apart: another organization's invitation is not reachable from here", async () => {
    const other = await createOrgWithAdmin(t, 'Other LLP');
    const otherClient = await signInWithEmailCode(t, other);
    // The other admin has not set up MFA yet: the setup wall holds every other call.
    expect((await otherClient.post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'user' })).statusCode).toBe(403);
    await otherClient.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' });
    const code = await t.sink.lastCode(other.email);
    await otherClient.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: code });
    const before = t.sink.messages.length;
    const r = await otherClient.post('/_api/settings/users/invite', { email: uniqueEmail(), role: 'user' });
    expect(r.statusCode).toBe(401);
    expect(r.json().details.availableMethods).toEqual(['email']);
    expect((await otherClient.post('/_api/auth/mfa-email', { userId: other.userId })).statusCode).toBe(200);
    await waitForCount(t.sink, before + 1);
    const actionCode = await t.sink.lastCode(other.email);
    const email = uniqueEmail('x');
    const ok = await otherClient.post('/_api/settings/users/invite', { email, role: 'user', mfaToken: actionCode });
    expect(ok.statusCode).toBe(200);
    const row = await t.ctx.db.selectFrom('invitations').select('organizationId').where('email', '=', email).executeTakeFirstOrThrow();
    expect(row.organizationId).toBe(other.organizationId);
    // An emailed code for another user's id is refused.
    expect((await otherClient.post('/_api/auth/mfa-email', { userId: admin.userId })).statusCode).toBe(400);
  });
});

describe('inviting addresses that already have an account', () => {
  let acct: Account;
  let c: Client;
  beforeAll(async () => {
    acct = await createOrgWithAdmin(t, 'Discreet LLP');
    c = await signInWithEmailCode(t, acct);
    await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' });
    expect(
      (await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: await t.sink.lastCode(acct.email) })).json()
        .message,
    ).toBe(MSG.emailEnabled);
  });

  async function actionCode(): Promise<string> {
    await t.ctx.db
      .updateTable('mfaEmailCodes')
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where('userId', '=', acct.userId)
      .execute();
    const before = t.sink.messages.length;
    expect((await c.post('/_api/auth/mfa-email', { userId: acct.userId })).statusCode).toBe(200);
    await waitForCount(t.sink, before + 1);
    return t.sink.lastCode(acct.email);
  }

  it('answers an address with an account in another organization exactly like a new one, and tells its owner instead', async () => {
    const fresh = uniqueEmail('fresh');
    const freshAnswer = await c.post('/_api/settings/users/invite', { email: fresh, role: 'user', mfaToken: await actionCode() });
    // admin.email holds an account in Acme LLP, not here.
    const taken = await c.post('/_api/settings/users/invite', { email: admin.email, role: 'user', mfaToken: await actionCode() });
    expect(taken.statusCode).toBe(freshAnswer.statusCode);
    expect(taken.statusCode).toBe(200);
    const shape = (body: { invitation: Record<string, unknown> }) => ({ ...body, invitation: Object.keys(body.invitation).sort() });
    expect(shape(taken.json())).toEqual({ ...shape(freshAnswer.json()), message: MSG.inviteSent(admin.email) });
    expect(taken.json().invitation).toMatchObject({ email: admin.email, role: 'user' });

    // The owner gets a notice without any link; nothing can be accepted with it.
    const notice = await t.sink.waitFor(admin.email, { subjectIncludes: 'tried to invite you' });
    expect(notice.text).toContain('already has a Strongroom account');
    expect(notice.text).not.toContain('accept-invitation');
    expect((await t.sink.waitFor(fresh, { subjectIncludes: 'invited you' })).text).toContain('/accept-invitation?token=');
    // The account stays where it was.
    const owner = await t.ctx.db.selectFrom('users').select('organizationId').where('id', '=', admin.userId).executeTakeFirstOrThrow();
    expect(owner.organizationId).toBe(admin.organizationId);
  });

  it('refuses a member of the same organization before asking for a code, and never spends one on it', async () => {
    const noCode = await c.post('/_api/settings/users/invite', { email: acct.email, role: 'user' });
    expect(noCode.statusCode).toBe(409);
    expect(noCode.json().error).toBe(MSG.inviteAlreadyMember);
    const code = await actionCode();
    const withCode = await c.post('/_api/settings/users/invite', { email: acct.email, role: 'user', mfaToken: code });
    expect(withCode.statusCode).toBe(409);
    // The same code still works for a request that can succeed.
    const ok = await c.post('/_api/settings/users/invite', { email: uniqueEmail('later'), role: 'user', mfaToken: code });
    expect(ok.statusCode).toBe(200);
  });
});
