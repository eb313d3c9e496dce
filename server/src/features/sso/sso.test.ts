/**
 * Single sign-on against a real OpenID provider on loopback (oidc-provider): an administrator's settings and their
 * every message, discovery by domain alone, linking by the provider's subject (never by email), just-in-time
 * accounts, the provider's MFA, Require SSO with the administrators' break-glass path, and what an attacker tries:
 * a forged or expired ID token, a wrong nonce, a replayed callback, another browser's callback, key rotation at the
 * provider, and another organization's provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_MSG } from '@strongroom/contracts';
import { currentTotp } from '../mfa/index.js';
import { Client, createTestApp, waitForCount, type TestApp } from '../../../test/helpers.js';
import { addMember, auditActions, newOrganizationWithTotp, ok, PASSWORD, type Member, type TotpMember } from '../../../test/factories.js';
import { startTestIdp, subjectOf, type IdpAccount, type TestIdp } from '../../../test/oidc-provider.js';

const REDIRECT_URI = 'http://localhost:3000/_api/auth/sso/callback';
let t: TestApp;
let idp: TestIdp;
let admin: TotpMember;
let member: Member;

async function code(m: TotpMember): Promise<string> {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', m.userId).execute();
  return currentTotp(m.totpSecret);
}

const domainOf = (email: string) => email.split('@')[1]!;

function settingsFor(provider: TestIdp, domains: string[], more: Record<string, unknown> = {}) {
  return {
    displayName: 'Okta',
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    domains,
    enabled: true,
    jitEnabled: false,
    jitRole: 'user',
    requireSso: false,
    providerMfaCounts: false,
    ...more,
  };
}

async function configure(by: TotpMember, provider: TestIdp, domains: string[], more: Record<string, unknown> = {}) {
  return ok(await by.client.post('/_api/settings/sso', { ...settingsFor(provider, domains, more), mfaToken: await code(by) }));
}

/** The browser's whole trip: Strongroom's start, the provider's pages, back to Strongroom's callback. */
async function trip(provider: TestIdp, account: IdpAccount, start: string, client = new Client(t.app)) {
  provider.loginAs(account);
  const started = await client.get(start);
  expect(started.statusCode, started.body).toBe(302);
  const callback = await provider.authorize(String(started.headers.location));
  const landed = await client.get(callback.pathname + callback.search);
  expect(landed.statusCode, landed.body).toBe(302);
  return { client, callback, location: String(landed.headers.location) };
}

const signInTrip = (provider: TestIdp, account: IdpAccount, email: string, client?: Client) =>
  trip(provider, account, `/_api/auth/sso/start?email=${encodeURIComponent(email)}`, client);

/** The second step of an SSO sign-in on /login: the pending person, then Strongroom's emailed code. */
async function finishWithEmailCode(c: Client, email: string) {
  const pending = ok(await c.get('/_api/auth/sso/pending'));
  const before = t.sink.messages.length;
  ok(await c.post('/_api/auth/mfa-email', { userId: pending.userId }));
  await waitForCount(t.sink, before + 1);
  const verified = ok(await c.post('/_api/auth/mfa-verify-email', { userId: pending.userId, token: await t.sink.lastCode(email) }));
  return { pending, verified };
}

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off', SSO_ALLOW_HTTP_LOOPBACK: 'true' });
  idp = await startTestIdp(REDIRECT_URI, 'firm-a');
  admin = await newOrganizationWithTotp(t, 'Single Sign LLP');
  member = await addMember(t, admin.organizationId, 'user', {}, 'Mia Member');
  await configure(admin, idp, [domainOf(admin.email)]);
});
afterAll(async () => {
  await idp.close();
  await t.shutdown();
});

describe('the administrator’s settings', () => {
  it('answers the provider without its secret, which is kept encrypted, and audits the change', async () => {
    const s = ok(await admin.client.get('/_api/settings/sso'));
    expect(s).toMatchObject({
      configured: true,
      displayName: 'Okta',
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecretSet: true,
      domains: [domainOf(admin.email)],
      enabled: true,
      jitEnabled: false,
      jitRole: 'user',
      requireSso: false,
      providerMfaCounts: false,
      redirectUri: REDIRECT_URI,
    });
    expect(JSON.stringify(s)).not.toContain(idp.clientSecret);
    const row = await t.ctx.db
      .selectFrom('organizationSso')
      .selectAll()
      .where('organizationId', '=', admin.organizationId)
      .executeTakeFirstOrThrow();
    expect(row.clientSecret).toMatch(/^v1:/);
    expect(row.clientSecret).not.toContain(idp.clientSecret);
    const entry = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'SSO_SETTINGS_UPDATED').pop();
    expect(entry?.details).toMatchObject({ issuer: idp.issuer, clientSecretChanged: true, requireSso: false });
    expect(JSON.stringify(entry)).not.toContain(idp.clientSecret);
  });

  it('needs a fresh code and an administrator', async () => {
    const body = settingsFor(idp, [domainOf(admin.email)]);
    const noCode = await admin.client.post('/_api/settings/sso', body);
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json().code).toBe('MFA_REQUIRED');
    expect((await member.client.get('/_api/settings/sso')).statusCode).toBe(403);
    expect((await member.client.post('/_api/settings/sso', body)).statusCode).toBe(403);
  });

  it('refuses each bad input with its message, and an issuer that cannot serve sign-in', async () => {
    const bad = async (more: Record<string, unknown>, status = 400) => {
      const res = await admin.client.post('/_api/settings/sso', {
        ...settingsFor(idp, [domainOf(admin.email)]),
        ...more,
        mfaToken: await code(admin),
      });
      expect(res.statusCode, res.body).toBe(status);
      return res.json().error as string;
    };
    expect(await bad({ displayName: ' ' })).toBe(SSO_MSG.displayNameRequired);
    expect(await bad({ clientId: '' })).toBe(SSO_MSG.clientIdRequired);
    expect(await bad({ domains: [] })).toBe(SSO_MSG.domainsRequired);
    expect(await bad({ domains: ['not a domain'] })).toBe(SSO_MSG.domainInvalid);
    expect(await bad({ domains: ['a.com', 'A.com'] })).toBe(SSO_MSG.domainDuplicate);
    expect(await bad({ jitRole: 'admin' })).toBe(SSO_MSG.jitRoleInvalid);
    expect(await bad({ issuer: 'ftp://idp.example' })).toBe(SSO_MSG.issuerInvalid);
    expect(await bad({ issuer: 'http://idp.example.com' })).toBe(SSO_MSG.issuerInvalid);
    expect(await bad({ requireSso: true, enabled: false })).toBe(SSO_MSG.requireNeedsProvider);
    expect(await bad({ issuer: 'http://127.0.0.1:9' })).toMatch(/^Strongroom could not read the provider’s OpenID configuration/);
    // Another issuer than the one the metadata names.
    expect(await bad({ issuer: `${idp.issuer}/elsewhere` })).toMatch(/^Strongroom could not read/);
  });

  it('keeps a domain to the organization that verified it first (409)', async () => {
    const other = await newOrganizationWithTotp(t, 'Claiming Firm LLP');
    const res = await other.client.post('/_api/settings/sso', {
      ...settingsFor(idp, ['claimer.test', domainOf(admin.email)]),
      mfaToken: await code(other),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(SSO_MSG.domainTaken(domainOf(admin.email)));
    const first = await other.client.post('/_api/settings/sso', { ...settingsFor(idp, []), mfaToken: await code(other) });
    expect(first.json().error).toBe(SSO_MSG.domainsRequired);
    const noSecret = await other.client.post('/_api/settings/sso', {
      ...settingsFor(idp, ['claimer.test'], { clientSecret: '' }),
      mfaToken: await code(other),
    });
    expect(noSecret.json().error).toBe(SSO_MSG.clientSecretRequired);
  });
});

describe('discovery on /login', () => {
  it('answers from the domain alone, the same for a person and for nobody', async () => {
    const someone = ok(await new Client(t.app).post('/_api/auth/sso/discover', { email: member.email }));
    const nobody = ok(await new Client(t.app).post('/_api/auth/sso/discover', { email: `nobody@${domainOf(member.email)}` }));
    expect(someone.sso.providerName).toBe('Okta');
    expect(nobody).toEqual({ ...someone, sso: { ...someone.sso, startUrl: expect.any(String) } });
    expect(ok(await new Client(t.app).post('/_api/auth/sso/discover', { email: 'x@elsewhere.test' }))).toEqual({
      sso: null,
      requireSso: false,
    });
    const start = await new Client(t.app).get('/_api/auth/sso/start?email=x%40elsewhere.test');
    expect(start.statusCode).toBe(400);
    expect(start.json().error).toBe(SSO_MSG.notConfiguredForEmail);
  });

  it('sends the browser to the provider with PKCE S256, state, nonce and the registered redirect URI', async () => {
    const start = await new Client(t.app).get(`/_api/auth/sso/start?email=${encodeURIComponent(member.email)}`);
    const url = new URL(String(start.headers.location));
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)?.length).toBeGreaterThan(20);
    expect(String(start.headers['set-cookie'])).toMatch(/sr_sso_state=.*HttpOnly/);
  });
});

describe('signing in with the provider', () => {
  it('links a signed-in person by the subject, then signs them in with Strongroom’s second factor after the provider', async () => {
    const person = await addMember(t, admin.organizationId, 'user', {}, 'Lin Linked');
    const account = { sub: subjectOf(person.email), email: person.email, name: 'Lin Linked' };
    const linked = await trip(idp, account, '/_api/auth/sso/link', person.client);
    expect(linked.location).toBe('/settings?sso_linked=1');
    expect(ok(await person.client.get('/_api/settings/sso/identity'))).toMatchObject({
      provider: { providerName: 'Okta' },
      linked: { linkedAt: expect.any(String) },
    });
    const done = await signInTrip(idp, account, person.email);
    expect(done.location).toBe('/login?sso=second-step');
    expect((await done.client.get('/_api/auth/session')).statusCode).toBe(401);
    const { pending, verified } = await finishWithEmailCode(done.client, person.email);
    expect(pending).toEqual({ userId: person.userId, email: person.email });
    expect(verified.user.id).toBe(person.userId);
    expect(ok(await done.client.get('/_api/auth/session')).user.id).toBe(person.userId);
    const actions = (await auditActions(t, admin.organizationId)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['SSO_LINKED', 'SSO_SIGN_IN']));
    const entry = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'SSO_SIGN_IN').pop();
    expect(entry?.details).toMatchObject({ providerName: 'Okta', secondFactor: 'strongroom' });
  });

  it('never links by email alone: an account with the address but no link is refused', async () => {
    const person = await addMember(t, admin.organizationId, 'user', {}, 'Eve Emailonly');
    const done = await signInTrip(idp, { sub: subjectOf(`other-${person.email}`), email: person.email }, person.email);
    expect(done.location).toBe('/login?sso_error=account_exists');
    expect(await t.ctx.db.selectFrom('userIdentities').selectAll().where('userId', '=', person.userId).execute()).toEqual([]);
    expect((await done.client.get('/_api/auth/sso/pending')).statusCode).toBe(401);
    const refused = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'SSO_SIGN_IN_REFUSED').pop();
    expect(refused?.details).toMatchObject({ reason: 'account_exists' });
  });

  it('creates nobody unless just-in-time creation is on, and then only for a verified domain', async () => {
    const domain = domainOf(admin.email);
    const newcomer = { sub: subjectOf('newcomer'), email: `newcomer@${domain}`, name: 'Nia Newcomer' };
    expect((await signInTrip(idp, newcomer, newcomer.email)).location).toBe('/login?sso_error=not_linked');
    await configure(admin, idp, [domain], { jitEnabled: true, jitRole: 'guest' });
    const outsider = { sub: subjectOf('outsider'), email: 'outsider@unverified.test' };
    expect((await signInTrip(idp, outsider, newcomer.email)).location).toBe('/login?sso_error=domain_not_verified');
    const unverified = { ...newcomer, sub: subjectOf('unverified'), email: `unverified@${domain}`, emailVerified: false };
    expect((await signInTrip(idp, unverified, unverified.email)).location).toBe('/login?sso_error=domain_not_verified');
    const done = await signInTrip(idp, newcomer, newcomer.email);
    expect(done.location).toBe('/login?sso=second-step');
    const user = await t.ctx.db.selectFrom('users').selectAll().where('email', '=', newcomer.email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'guest', fullName: 'Nia Newcomer', organizationId: admin.organizationId });
    const created = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'SSO_USER_CREATED').pop();
    expect(created?.details).toMatchObject({ email: newcomer.email, role: 'guest' });
    await configure(admin, idp, [domain]);
  });

  it('reads the address and name at userinfo when the provider keeps them out of the ID token', async () => {
    const idpU = await startTestIdp(REDIRECT_URI, 'firm-u', { claimsAtUserinfo: true });
    try {
      const adminU = await newOrganizationWithTotp(t, 'Userinfo LLP');
      await configure(adminU, idpU, ['firm-u.test'], { jitEnabled: true });
      const uma = { sub: subjectOf('uma'), email: 'uma@firm-u.test', name: 'Uma Userinfo' };
      const done = await trip(idpU, uma, '/_api/auth/sso/start?email=uma%40firm-u.test');
      expect(done.location).toBe('/login?sso=second-step');
      const user = await t.ctx.db.selectFrom('users').selectAll().where('email', '=', uma.email).executeTakeFirstOrThrow();
      expect(user).toMatchObject({ fullName: 'Uma Userinfo', organizationId: adminU.organizationId, role: 'user' });
    } finally {
      await idpU.close();
    }
  });

  it('counts the provider’s MFA only when the organization says so', async () => {
    const person = await addMember(t, admin.organizationId, 'user', {}, 'Max Mfa');
    const account = { sub: subjectOf(person.email), email: person.email, amr: ['pwd', 'mfa'] };
    await trip(idp, account, '/_api/auth/sso/link', person.client);
    expect((await signInTrip(idp, account, person.email)).location).toBe('/login?sso=second-step');
    await configure(admin, idp, [domainOf(admin.email)], { providerMfaCounts: true });
    const withMfa = await signInTrip(idp, account, person.email);
    expect(withMfa.location).toBe('/');
    expect(ok(await withMfa.client.get('/_api/auth/session')).user.id).toBe(person.userId);
    const withoutMfa = await signInTrip(idp, { ...account, amr: ['pwd'] }, person.email);
    expect(withoutMfa.location).toBe('/login?sso=second-step');
    await configure(admin, idp, [domainOf(admin.email)]);
  });

  it('refuses a subject already linked to another person, and unlinks behind a fresh code', async () => {
    const first = await addMember(t, admin.organizationId, 'user', {}, 'Fay First');
    const account = { sub: subjectOf(first.email), email: first.email };
    await trip(idp, account, '/_api/auth/sso/link', first.client);
    const other = await addMember(t, admin.organizationId, 'user', {}, 'Sam Second');
    expect((await trip(idp, account, '/_api/auth/sso/link', other.client)).location).toBe('/settings?sso_error=already_linked');
    const links = await t.ctx.db.selectFrom('userIdentities').select('userId').where('subject', '=', account.sub).execute();
    expect(links).toEqual([{ userId: first.userId }]);
    // Unlinking: a fresh code of the person's own method (emailed codes here).
    const noCode = await first.client.post('/_api/settings/sso/unlink', {});
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json().code).toBe('MFA_REQUIRED');
    const before = t.sink.messages.length;
    ok(await first.client.post('/_api/auth/mfa-email', { userId: first.userId }));
    await waitForCount(t.sink, before + 1);
    const done = ok(await first.client.post('/_api/settings/sso/unlink', { mfaToken: await t.sink.lastCode(first.email) }));
    expect(done.message).toBe(SSO_MSG.unlinked);
    expect(ok(await first.client.get('/_api/settings/sso/identity')).linked).toBeNull();
    expect((await signInTrip(idp, account, first.email)).location).toBe('/login?sso_error=account_exists');
    const again = await first.client.post('/_api/settings/sso/unlink', {});
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe(SSO_MSG.notLinked);
    const entry = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'SSO_UNLINKED').pop();
    expect(entry?.details).toMatchObject({ issuer: idp.issuer });
  });
});

describe('what an attacker tries', () => {
  let victim: Member;
  let account: IdpAccount;
  beforeAll(async () => {
    victim = await addMember(t, admin.organizationId, 'user', {}, 'Vic Victim');
    account = { sub: subjectOf(victim.email), email: victim.email };
    await trip(idp, account, '/_api/auth/sso/link', victim.client);
  });

  const refusedAs = async (reason: string) => {
    const refused = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'SSO_SIGN_IN_REFUSED').pop();
    expect(refused?.details).toMatchObject({ reason });
  };

  it('refuses an ID token signed with a key the provider does not publish', async () => {
    idp.tamper((claims) => ({ claims, key: 'foreign' }));
    try {
      const done = await signInTrip(idp, account, victim.email);
      expect(done.location).toBe('/login?sso_error=token_invalid');
      expect((await done.client.get('/_api/auth/sso/pending')).statusCode).toBe(401);
    } finally {
      idp.tamper(null);
    }
    await refusedAs('token_invalid');
  });

  it('refuses an expired ID token, one for another audience, and one from another issuer', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    type Change = (c: Record<string, unknown>) => Record<string, unknown>;
    const cases: Array<[Change, string]> = [
      [(c) => ({ ...c, iat: past - 600, exp: past }), '/login?sso_error=token_invalid'],
      [(c) => ({ ...c, aud: 'someone-else' }), '/login?sso_error=token_invalid'],
      [(c) => ({ ...c, iss: 'https://evil.example' }), '/login?sso_error=token_invalid'],
      // Another subject, well signed, with the victim's address: nobody linked, and never linked by the address.
      [(c) => ({ ...c, sub: subjectOf('someone else') }), '/login?sso_error=account_exists'],
    ];
    for (const [change, expected] of cases) {
      idp.tamper((claims) => ({ claims: change(claims), key: 'provider' }));
      try {
        expect((await signInTrip(idp, account, victim.email)).location).toBe(expected);
      } finally {
        idp.tamper(null);
      }
    }
    // The same token untouched passes: the refusals above were the changes'.
    expect((await signInTrip(idp, account, victim.email)).location).toBe('/login?sso=second-step');
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    idp.loginAs(account);
    const client = new Client(t.app);
    const started = await client.get(`/_api/auth/sso/start?email=${encodeURIComponent(victim.email)}`);
    const state = new URL(String(started.headers.location)).searchParams.get('state')!;
    const { createHash } = await import('node:crypto');
    await t.ctx.db
      .updateTable('ssoLoginStates')
      .set({ nonce: 'a-nonce-of-another-sign-in' })
      .where('stateHash', '=', createHash('sha256').update(state).digest('hex'))
      .execute();
    const callback = await idp.authorize(String(started.headers.location));
    const landed = await client.get(callback.pathname + callback.search);
    expect(landed.headers.location).toBe('/login?sso_error=token_invalid');
    await refusedAs('token_invalid');
  });

  it('refuses a replayed callback, and a callback finished in another browser', async () => {
    const done = await signInTrip(idp, account, victim.email);
    expect(done.location).toBe('/login?sso=second-step');
    const replay = await done.client.get(done.callback.pathname + done.callback.search);
    expect(replay.headers.location).toBe('/login?sso_error=state_invalid');
    // Another browser's state cookie (a link sent to a victim to sign them in as someone else): refused.
    idp.loginAs(account);
    const attacker = new Client(t.app);
    const started = await attacker.get(`/_api/auth/sso/start?email=${encodeURIComponent(victim.email)}`);
    const callback = await idp.authorize(String(started.headers.location));
    const elsewhere = await new Client(t.app).get(callback.pathname + callback.search);
    expect(elsewhere.headers.location).toBe('/login?sso_error=state_invalid');
    await refusedAs('state_invalid');
    // Without any state at all, or with a provider's error: a readable refusal, never a 500.
    expect((await new Client(t.app).get('/_api/auth/sso/callback')).headers.location).toBe('/login?sso_error=state_invalid');
  });

  it('gives one sign-in to the same callback sent twice at once', async () => {
    idp.loginAs(account);
    const c = new Client(t.app);
    const started = await c.get(`/_api/auth/sso/start?email=${encodeURIComponent(victim.email)}`);
    const callback = await idp.authorize(String(started.headers.location));
    const pendings = async () =>
      (await t.ctx.db.selectFrom('pendingLogins').select('id').where('userId', '=', victim.userId).where('via', '=', 'sso').execute())
        .length;
    const before = await pendings();
    const both = await Promise.all([0, 1].map(() => c.get(callback.pathname + callback.search)));
    expect(both.map((r) => r.headers.location).sort()).toEqual(['/login?sso=second-step', '/login?sso_error=state_invalid']);
    expect(await pendings(), 'one pending sign-in for the one state').toBe(before + 1);
  });

  it('follows the provider’s key rotation from one sign-in to the next', async () => {
    expect((await signInTrip(idp, account, victim.email)).location).toBe('/login?sso=second-step');
    idp.rotateKeys();
    expect((await signInTrip(idp, account, victim.email)).location).toBe('/login?sso=second-step');
    idp.rotateKeys();
    expect((await signInTrip(idp, account, victim.email)).location).toBe('/login?sso=second-step');
  });

  it("never lets another organization's provider sign anyone into this one", async () => {
    const idpB = await startTestIdp(REDIRECT_URI, 'firm-b');
    try {
      const adminB = await newOrganizationWithTotp(t, 'Other Provider LLP');
      await configure(adminB, idpB, ['firm-b.test'], { jitEnabled: true });
      // The same subject at firm B's provider, with the victim's address: it is not the victim.
      const done = await trip(idpB, account, '/_api/auth/sso/start?email=someone%40firm-b.test');
      expect(done.location).toBe('/login?sso_error=account_exists');
      // Firm B's person signs in to firm B only.
      const bPerson = { sub: subjectOf(victim.email), email: 'bea@firm-b.test', name: 'Bea B' };
      const bDone = await trip(idpB, bPerson, '/_api/auth/sso/start?email=bea%40firm-b.test');
      expect(bDone.location).toBe('/login?sso=second-step');
      const pending = ok(await bDone.client.get('/_api/auth/sso/pending'));
      expect(pending.userId).not.toBe(victim.userId);
      const bUser = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', pending.userId).executeTakeFirstOrThrow();
      expect(bUser.organizationId).toBe(adminB.organizationId);
      // A code of firm A's provider carried back under a sign-in firm B started: firm B's provider rejects it.
      idp.loginAs(account);
      const client = new Client(t.app);
      const startedB = await client.get('/_api/auth/sso/start?email=bea%40firm-b.test');
      const stateB = new URL(String(startedB.headers.location)).searchParams.get('state')!;
      const startedA = await new Client(t.app).get(`/_api/auth/sso/start?email=${encodeURIComponent(victim.email)}`);
      const aUrl = new URL(String(startedA.headers.location));
      aUrl.searchParams.set('state', stateB);
      const aCallback = await idp.authorize(aUrl.href);
      const mixed = await client.get(aCallback.pathname + aCallback.search);
      expect(mixed.headers.location).toBe('/login?sso_error=token_invalid');
    } finally {
      await idpB.close();
    }
  });
});

describe('Require SSO', () => {
  it('closes the password to members and leaves administrators a recovery code (break-glass), audited', async () => {
    const recovery = ok(await admin.client.post('/_api/settings/mfa/recovery-codes', { mfaToken: await code(admin) }))
      .recoveryCodes as string[];
    await configure(admin, idp, [domainOf(admin.email)], { requireSso: true });
    expect(ok(await new Client(t.app).post('/_api/auth/sso/discover', { email: member.email })).requireSso).toBe(true);
    const refused = await new Client(t.app).post('/_api/auth/login_with_password', { email: member.email, password: PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(SSO_MSG.passwordSignInOff('Okta'));
    expect(refused.json().details).toMatchObject({ reason: 'SSO_REQUIRED' });
    const wrong = await new Client(t.app).post('/_api/auth/login_with_password', { email: member.email, password: 'not the password' });
    expect(wrong.statusCode).toBe(401);

    const c = new Client(t.app);
    const step = ok(await c.post('/_api/auth/login_with_password', { email: admin.email, password: PASSWORD }));
    expect(step).toEqual({ userId: admin.userId, email: admin.email, breakGlass: true });
    const totp = await c.post('/_api/auth/mfa-verify-totp', { userId: admin.userId, token: await code(admin) });
    expect(totp.statusCode).toBe(403);
    expect(totp.json().error).toBe(SSO_MSG.breakGlassRecoveryOnly);
    const inside = ok(await c.post('/_api/auth/mfa-recovery', { userId: admin.userId, recoveryCode: recovery[0] }));
    expect(inside.user.id).toBe(admin.userId);
    const login = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'USER_LOGIN').pop();
    expect(login?.details).toMatchObject({ method: 'recovery', breakGlass: true });
    const failed = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'USER_LOGIN_FAILED');
    expect(failed.map((f) => f.details.reason)).toEqual(expect.arrayContaining(['sso_required', 'wrong_password']));
    // Turned off again, the members' passwords work again.
    await configure(admin, idp, [domainOf(admin.email)]);
    expect((await new Client(t.app).post('/_api/auth/login_with_password', { email: member.email, password: PASSWORD })).statusCode).toBe(
      200,
    );
  });

  it('switching it on ends members’ password sessions, but not sessions opened through the provider nor administrators’', async () => {
    const pam = await addMember(t, admin.organizationId, 'user', {}, 'Pam Password');
    const sam = await addMember(t, admin.organizationId, 'user', {}, 'Sam Provider');
    const account = { sub: subjectOf(sam.email), email: sam.email, name: 'Sam Provider' };
    await trip(idp, account, '/_api/auth/sso/link', sam.client);
    const viaProvider = (await signInTrip(idp, account, sam.email)).client;
    await finishWithEmailCode(viaProvider, sam.email);
    const alive = async (c: Client) => (await c.get('/_api/auth/session')).statusCode;
    expect([await alive(pam.client), await alive(sam.client), await alive(viaProvider)]).toEqual([200, 200, 200]);

    await configure(admin, idp, [domainOf(admin.email)], { requireSso: true });
    expect(await alive(pam.client), 'a member’s password session ends').toBe(401);
    expect(await alive(sam.client), 'the same for a linked member’s password session').toBe(401);
    expect(await alive(viaProvider), 'a session opened through the provider stays').toBe(200);
    expect(await alive(admin.client), 'an administrator’s session stays').toBe(200);
    const saved = () => auditActions(t, admin.organizationId).then((a) => a.filter((e) => e.action === 'SSO_SETTINGS_UPDATED').pop());
    expect(Number((await saved())?.details.sessionsEnded)).toBeGreaterThanOrEqual(2);
    // Saved again while it is on: nothing more to end.
    await configure(admin, idp, [domainOf(admin.email)], { requireSso: true });
    expect((await saved())?.details.sessionsEnded).toBe(0);
    await configure(admin, idp, [domainOf(admin.email)]);
  });
});
