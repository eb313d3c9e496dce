/**
 * Passkeys as a person and an attacker meet them over HTTP, with real WebAuthn answers made by a software
 * authenticator (server/test/soft-authenticator.ts): registering behind a fresh code, the second factor of signing
 * in, passwordless sign-in only where the organization allows it, a step-up bought with a passkey, a wrong origin,
 * an unknown and a replayed challenge, a counter going back (a clone), another person's and organization's
 * credential and passkey ids, removal behind a code, and the code methods left when every passkey is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, PASSKEY_LIMITS, PASSKEY_MSG } from '@strongroom/contracts';
import { currentTotp } from '../mfa/index.js';
import { Client, createTestApp, waitForCount, type TestApp } from '../../../test/helpers.js';
import { addMember, auditActions, newOrganizationWithTotp, newTotpAdmin, ok, type TotpMember } from '../../../test/factories.js';
import { SoftAuthenticator } from '../../../test/soft-authenticator.js';

let t: TestApp;
let admin: TotpMember & { account: { email: string; password: string } };
let other: TotpMember & { account: { email: string; password: string } };

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Keyed Firm LLP');
  other = await newOrganizationWithTotp(t, 'Other Firm LLP');
});
afterAll(() => t.shutdown());

/** A fresh authenticator code (the step of the last one used is forgotten, so the same step serves again). */
async function totp(m: TotpMember): Promise<string> {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', m.userId).execute();
  return currentTotp(m.totpSecret);
}

async function register(m: TotpMember, name = 'Laptop', authenticator = new SoftAuthenticator()) {
  const options = ok(await m.client.post('/_api/settings/passkeys/registration-options', {}));
  const response = authenticator.register(options);
  const made = ok(await m.client.post('/_api/settings/passkeys', { name, response, mfaToken: await totp(m) }));
  return { authenticator, passkeyId: made.passkey.passkeyId as string };
}

/** The password step of a new browser: a client holding the pending sign-in cookie. */
async function passwordStep(account: { email: string; password: string }) {
  const c = new Client(t.app);
  const { userId } = ok(await c.post('/_api/auth/login_with_password', { email: account.email, password: account.password }));
  return { c, userId: userId as number };
}

describe('registering a passkey', () => {
  it('verifies the answer, asks for a fresh code, keeps the passkey with its flags, audits and mails it', async () => {
    const options = ok(await admin.client.post('/_api/settings/passkeys/registration-options', {}));
    expect(options.rp).toEqual({ name: 'Strongroom', id: 'localhost' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const authenticator = new SoftAuthenticator();
    const response = authenticator.register(options);
    const noCode = await admin.client.post('/_api/settings/passkeys', { name: 'Work laptop', response });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json().code).toBe('MFA_REQUIRED');
    const before = t.sink.messages.length;
    const made = ok(await admin.client.post('/_api/settings/passkeys', { name: 'Work laptop', response, mfaToken: await totp(admin) }));
    expect(made.message).toBe(PASSKEY_MSG.registered);
    expect(made.passkey).toMatchObject({ name: 'Work laptop', deviceType: 'multiDevice', backedUp: true, lastUsedAt: null });
    const listed = ok(await admin.client.get('/_api/settings/passkeys'));
    expect(listed.passkeys.map((p: { name: string }) => p.name)).toEqual(['Work laptop']);
    expect(listed.allowPasskeySignIn).toBe(false);
    const row = await t.ctx.db.selectFrom('passkeys').selectAll().where('id', '=', made.passkey.passkeyId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ credentialId: authenticator.id, signCount: '0', backupEligible: true, transports: ['internal'] });
    const audit = await auditActions(t, admin.organizationId);
    expect(audit.at(-1)).toMatchObject({ action: 'PASSKEY_REGISTERED', details: { name: 'Work laptop' } });
    await waitForCount(t.sink, before + 1);
    expect(t.sink.messages.at(-1)!.subject).toMatch(/passkey was added/);
    // The same answer again: its challenge is spent.
    const again = await admin.client.post('/_api/settings/passkeys', { name: 'Again', response, mfaToken: await totp(admin) });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(PASSKEY_MSG.verificationFailed);
  });

  it('refuses an answer made for another origin, another challenge or by another session', async () => {
    const options = ok(await admin.client.post('/_api/settings/passkeys/registration-options', {}));
    const wrongOrigin = new SoftAuthenticator('localhost', 'https://evil.example').register(options);
    const res = await admin.client.post('/_api/settings/passkeys', { name: 'Phish', response: wrongOrigin, mfaToken: await totp(admin) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(PASSKEY_MSG.verificationFailed);
    const unknown = new SoftAuthenticator().register({ challenge: 'bm90LWEtcmVhbC1jaGFsbGVuZ2U' });
    expect(
      (await admin.client.post('/_api/settings/passkeys', { name: 'X', response: unknown, mfaToken: await totp(admin) })).statusCode,
    ).toBe(400);
    const othersOptions = ok(await other.client.post('/_api/settings/passkeys/registration-options', {}));
    const stolen = new SoftAuthenticator().register(othersOptions);
    expect(
      (await admin.client.post('/_api/settings/passkeys', { name: 'X', response: stolen, mfaToken: await totp(admin) })).statusCode,
    ).toBe(400);
  });

  it('answers every validation message', async () => {
    const options = ok(await admin.client.post('/_api/settings/passkeys/registration-options', {}));
    const response = new SoftAuthenticator().register(options);
    const bad = async (body: Record<string, unknown>, message: string) => {
      const res = await admin.client.post('/_api/settings/passkeys', { name: 'Key', response, ...body });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain(message);
    };
    await bad({ name: '' }, PASSKEY_MSG.nameRequired);
    await bad({ name: '   ' }, PASSKEY_MSG.nameRequired);
    await bad({ name: 'x'.repeat(PASSKEY_LIMITS.nameMax + 1) }, PASSKEY_MSG.nameTooLong);
    await bad({ response: { ...response, type: 'other' } }, PASSKEY_MSG.responseRequired);
    await bad({ response: { ...response, response: { clientDataJSON: 'not base64url!' } } }, PASSKEY_MSG.responseRequired);
    await bad({ response: undefined }, PASSKEY_MSG.responseRequired);
  });
});

describe('a passkey as the second factor', () => {
  it('is offered, opens the session, records the counter, and refuses a wrong or replayed challenge', async () => {
    const { authenticator, passkeyId } = await register(admin, 'Phone');
    const { c, userId } = await passwordStep(admin.account);
    const challenge = ok(await c.post('/_api/auth/mfa-challenge', { userId }));
    expect(challenge.availableMethods).toEqual(['totp', 'passkey']);
    const options = ok(await c.post('/_api/auth/passkey-challenge', { userId }));
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials.map((a: { id: string }) => a.id)).toContain(authenticator.id);

    const forged = await c.post('/_api/auth/mfa-verify-passkey', { userId, response: authenticator.assert('bm90LWEtcmVhbC1jaGFsbGVuZ2U') });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error).toBe(PASSKEY_MSG.verificationFailed);

    const wrongOrigin = await c.post('/_api/auth/mfa-verify-passkey', {
      userId,
      response: authenticator.assert(options.challenge, { origin: 'https://evil.example' }),
    });
    expect(wrongOrigin.statusCode).toBe(401);

    // The challenge was consumed by the refused answer: a right answer to it is refused too.
    const spent = await c.post('/_api/auth/mfa-verify-passkey', { userId, response: authenticator.assert(options.challenge) });
    expect(spent.statusCode).toBe(401);

    const fresh = ok(await c.post('/_api/auth/passkey-challenge', { userId }));
    const answer = authenticator.assert(fresh.challenge);
    const done = ok(await c.post('/_api/auth/mfa-verify-passkey', { userId, response: answer }));
    expect(done.user.id).toBe(userId);
    expect(ok(await c.get('/_api/auth/session')).user.id).toBe(userId);
    const row = await t.ctx.db.selectFrom('passkeys').selectAll().where('id', '=', passkeyId).executeTakeFirstOrThrow();
    expect(row.signCount).toBe(String(authenticator.counter));
    expect(row.lastUsedAt).not.toBeNull();
    const audit = await auditActions(t, admin.organizationId);
    expect(audit.filter((a) => a.action === 'MFA_VERIFICATION_FAILED' && a.details.method === 'passkey').length).toBeGreaterThanOrEqual(3);
    expect(audit.at(-1)).toMatchObject({ action: 'USER_LOGIN', details: { method: 'passkey' } });

    // Replaying the accepted answer on another pending sign-in: refused.
    const second = await passwordStep(admin.account);
    const replay = await second.c.post('/_api/auth/mfa-verify-passkey', { userId, response: answer });
    expect(replay.statusCode).toBe(401);
  });

  it('refuses another organization’s credential and asks for the pending sign-in', async () => {
    const { authenticator: theirs } = await register(other, 'Their key');
    const { c, userId } = await passwordStep(admin.account);
    const options = ok(await c.post('/_api/auth/passkey-challenge', { userId }));
    const res = await c.post('/_api/auth/mfa-verify-passkey', { userId, response: theirs.assert(options.challenge) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(PASSKEY_MSG.verificationFailed);
    const noPending = await new Client(t.app).post('/_api/auth/passkey-challenge', { userId });
    expect(noPending.statusCode).toBe(401);
    expect(noPending.json().error).toBe(MSG.pendingLoginMissing);
  });

  it('refuses a cloned credential whose counter went back, leaves the row, audits and tells the person', async () => {
    const { authenticator, passkeyId } = await register(admin, 'Cloned key');
    const first = await passwordStep(admin.account);
    const o1 = ok(await first.c.post('/_api/auth/passkey-challenge', { userId: first.userId }));
    ok(
      await first.c.post('/_api/auth/mfa-verify-passkey', {
        userId: first.userId,
        response: authenticator.assert(o1.challenge, { counter: 7 }),
      }),
    );
    const before = t.sink.messages.length;
    const second = await passwordStep(admin.account);
    const o2 = ok(await second.c.post('/_api/auth/passkey-challenge', { userId: second.userId }));
    const clone = await second.c.post('/_api/auth/mfa-verify-passkey', {
      userId: second.userId,
      response: authenticator.assert(o2.challenge, { counter: 3 }),
    });
    expect(clone.statusCode).toBe(401);
    expect(clone.json().error).toBe(PASSKEY_MSG.cloneSuspected);
    const row = await t.ctx.db.selectFrom('passkeys').select('signCount').where('id', '=', passkeyId).executeTakeFirstOrThrow();
    expect(row.signCount).toBe('7');
    const audit = await auditActions(t, admin.organizationId);
    expect(audit.find((a) => a.action === 'PASSKEY_CLONE_SUSPECTED')).toMatchObject({ details: { passkeyId, givenCounter: '3' } });
    await waitForCount(t.sink, before + 1);
    expect(t.sink.messages.at(-1)!.subject).toMatch(/passkeys was refused/);
    // The same counter again is refused as well.
    const o3 = ok(await second.c.post('/_api/auth/passkey-challenge', { userId: second.userId }));
    const same = await second.c.post('/_api/auth/mfa-verify-passkey', {
      userId: second.userId,
      response: authenticator.assert(o3.challenge, { counter: 7 }),
    });
    expect(same.json().error).toBe(PASSKEY_MSG.cloneSuspected);
  });
});

describe('passwordless sign-in', () => {
  it('is refused until an administrator allows it behind a code, then opens a session', async () => {
    const { authenticator } = await register(admin, 'Desk key');
    const c = new Client(t.app);
    const o1 = ok(await c.post('/_api/auth/passkey-login-options', {}));
    expect(o1.allowCredentials ?? []).toEqual([]);
    expect(o1.userVerification).toBe('required');
    const refused = await c.post('/_api/auth/login_with_passkey', { response: authenticator.assert(o1.challenge) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(PASSKEY_MSG.signInNotAllowed);

    const noCode = await admin.client.post('/_api/settings/passkeys/policy', { allowPasskeySignIn: true });
    expect(noCode.json().code).toBe('MFA_REQUIRED');
    const allowed = ok(
      await admin.client.post('/_api/settings/passkeys/policy', { allowPasskeySignIn: true, mfaToken: await totp(admin) }),
    );
    expect(allowed.allowPasskeySignIn).toBe(true);
    expect(ok(await admin.client.get('/_api/settings/passkeys/policy')).allowPasskeySignIn).toBe(true);

    const o2 = ok(await c.post('/_api/auth/passkey-login-options', {}));
    const signedIn = ok(await c.post('/_api/auth/login_with_passkey', { response: authenticator.assert(o2.challenge) }));
    expect(signedIn.user.id).toBe(admin.userId);
    expect(signedIn.message).toBe(PASSKEY_MSG.signedIn);
    expect(ok(await c.get('/_api/auth/session')).user.id).toBe(admin.userId);
    const audit = await auditActions(t, admin.organizationId);
    expect(audit.at(-1)).toMatchObject({ action: 'USER_LOGIN', details: { method: 'passkey', passwordless: true } });

    // A challenge serves once; a second-factor challenge does not serve a passwordless sign-in.
    const replay = await new Client(t.app).post('/_api/auth/login_with_passkey', { response: authenticator.assert(o2.challenge) });
    expect(replay.statusCode).toBe(401);
    const { c: pending, userId } = await passwordStep(admin.account);
    const mfaOptions = ok(await pending.post('/_api/auth/passkey-challenge', { userId }));
    const crossed = await new Client(t.app).post('/_api/auth/login_with_passkey', { response: authenticator.assert(mfaOptions.challenge) });
    expect(crossed.statusCode).toBe(401);
  });

  it('gives one session to the same answer sent twice at once', async () => {
    const { authenticator } = await register(admin, 'Race key');
    const options = ok(await new Client(t.app).post('/_api/auth/passkey-login-options', {}));
    const response = authenticator.assert(options.challenge);
    const logins = async () => (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'USER_LOGIN').length;
    const before = await logins();
    const both = await Promise.all(
      [new Client(t.app), new Client(t.app)].map((c) => c.post('/_api/auth/login_with_passkey', { response })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    expect(await logins()).toBe(before + 1);
  });

  it('refuses the policy change to a member who is not an administrator', async () => {
    const member = await addMember(t, admin.organizationId, 'user', {}, 'Mo Member');
    const res = await member.client.post('/_api/settings/passkeys/policy', { allowPasskeySignIn: false, mfaToken: '123456' });
    expect(res.statusCode).toBe(403);
  });
});

describe('a step-up with a passkey', () => {
  it('buys the system MFA token of the operation’s class, which the sensitive call takes', async () => {
    const { authenticator } = await register(admin, 'Step-up key');
    const asked = await admin.client.post('/_api/settings/passkeys/policy', { allowPasskeySignIn: false });
    expect(asked.json().code).toBe('MFA_REQUIRED');
    expect(asked.json().details.availableMethods).toEqual(['totp', 'passkey']);
    const options = ok(await admin.client.post('/_api/auth/passkey-step-up-options', { operation: 'MFA_ORGANIZATION_SETTINGS' }));
    const wrong = await admin.client.post('/_api/auth/passkey-step-up', {
      operation: 'MFA_USER_MANAGEMENT',
      response: authenticator.assert(options.challenge),
    });
    expect(wrong.statusCode).toBe(401);
    const o2 = ok(await admin.client.post('/_api/auth/passkey-step-up-options', { operation: 'MFA_ORGANIZATION_SETTINGS' }));
    const { systemMfaToken } = ok(
      await admin.client.post('/_api/auth/passkey-step-up', {
        operation: 'MFA_ORGANIZATION_SETTINGS',
        response: authenticator.assert(o2.challenge),
      }),
    );
    const changed = ok(await admin.client.post('/_api/settings/passkeys/policy', { allowPasskeySignIn: false, mfaToken: systemMfaToken }));
    expect(changed.allowPasskeySignIn).toBe(false);
    const audit = await auditActions(t, admin.organizationId);
    expect(audit.some((a) => a.action === 'MFA_VERIFICATION_SUCCESS' && a.details.method === 'passkey')).toBe(true);
    // A token of that class manages nobody: another class's call asks for a code again.
    const invite = await admin.client.post('/_api/settings/users/invite', {
      email: 'someone@firm.test',
      role: 'user',
      mfaToken: systemMfaToken,
    });
    expect(invite.statusCode).toBe(401);
  });

  it('refuses an unknown operation and a person without a passkey', async () => {
    const bad = await admin.client.post('/_api/auth/passkey-step-up-options', { operation: 'DO_ANYTHING' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain(PASSKEY_MSG.invalidOperation);
    const none = await newOrganizationWithTotp(t, 'Keyless LLP');
    const res = await none.client.post('/_api/auth/passkey-step-up-options', { operation: 'MFA_ORGANIZATION_SETTINGS' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(PASSKEY_MSG.noPasskeys);
    const asked = await none.client.post('/_api/settings/passkeys/policy', { allowPasskeySignIn: true });
    expect(asked.json().details.availableMethods).toEqual(['totp']);
  });
});

describe('naming and removing passkeys', () => {
  it('renames and removes one’s own behind a code; another person’s or organization’s id answers 404', async () => {
    const { passkeyId } = await register(other, 'Old name');
    const renamed = ok(await other.client.post('/_api/settings/passkeys/rename', { passkeyId, name: 'New name' }));
    expect(renamed.passkey.name).toBe('New name');
    expect((await admin.client.post('/_api/settings/passkeys/rename', { passkeyId, name: 'Mine' })).statusCode).toBe(404);
    expect((await admin.client.post('/_api/settings/passkeys/remove', { passkeyId, mfaToken: await totp(admin) })).statusCode).toBe(404);
    const badId = await other.client.post('/_api/settings/passkeys/rename', { passkeyId: 'nope', name: 'x' });
    expect(badId.statusCode).toBe(400);
    expect(JSON.stringify(badId.json())).toContain(PASSKEY_MSG.invalidPasskeyId);
    const noCode = await other.client.post('/_api/settings/passkeys/remove', { passkeyId });
    expect(noCode.json().code).toBe('MFA_REQUIRED');
    const list = ok(await other.client.get('/_api/settings/passkeys'));
    for (const p of list.passkeys as Array<{ passkeyId: string }>) {
      ok(await other.client.post('/_api/settings/passkeys/remove', { passkeyId: p.passkeyId, mfaToken: await totp(other) }));
    }
    expect(ok(await other.client.get('/_api/settings/passkeys')).passkeys).toEqual([]);
    const audit = await auditActions(t, other.organizationId);
    expect(audit.filter((a) => a.action === 'PASSKEY_REMOVED').length).toBe(list.passkeys.length);
    expect(audit.some((a) => a.action === 'PASSKEY_RENAMED')).toBe(true);
    // With every passkey gone, the authenticator (and its recovery codes) remain.
    const { c, userId } = await passwordStep(other.account);
    expect(ok(await c.post('/_api/auth/mfa-challenge', { userId })).availableMethods).toEqual(['totp']);
    const none = await c.post('/_api/auth/passkey-challenge', { userId });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe(PASSKEY_MSG.noPasskeys);
    ok(await c.post('/_api/auth/mfa-verify-totp', { userId, token: await totp(other) }));
  });
});

describe('an administrator resets a person’s second factor', () => {
  it('removes the person’s passkeys with the authenticator (the lost device may hold one)', async () => {
    const colleague = await newTotpAdmin(t, admin.organizationId, 'Lou Lost');
    await register(colleague, 'Lost phone');
    const { publicId } = await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', colleague.userId).executeTakeFirstOrThrow();
    ok(
      await admin.client.post('/_api/settings/users/reset-mfa', {
        userId: publicId,
        reason: 'Phone lost on a trip',
        mfaToken: await totp(admin),
      }),
    );
    const left = await t.ctx.db.selectFrom('passkeys').select('id').where('userId', '=', colleague.userId).execute();
    expect(left).toEqual([]);
    const audit = await auditActions(t, admin.organizationId);
    expect(audit.at(-1)).toMatchObject({ action: 'MFA_RESET', details: { passkeysRemoved: 1 } });
  });
});
