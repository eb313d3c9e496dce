import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, MSG } from '@strongroom/contracts';
import { logOptions } from '../../app.js';
import { Client, createOrgWithAdmin, createTestApp, type Account, type TestApp } from '../../../test/helpers.js';
import { PASSWORD_RESET_MAIL_JOB } from './password-reset.service.js';

/**
 * The embedded outbox mailer (no SMTP_URL) with every log line kept: codes, reset links and invitation links
 * must reach the mail and never the log.
 */
let t: TestApp;
let admin: Account;
const logLines: string[] = [];

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(String(chunk));
      cb();
    },
  });
  t = await createTestApp({ SMTP_URL: '', JOB_RUNNER: 'off' }, { loggerInstance: pino(logOptions('trace'), stream) });
  admin = await createOrgWithAdmin(t, 'Quiet LLP');
});
afterAll(() => t.shutdown());

type OutboxMail = { to: string; subject: string; text: string };
const outbox = (): OutboxMail[] => {
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as OutboxMail);
};
const lastTo = (to: string) =>
  outbox()
    .filter((m) => m.to === to)
    .at(-1)!;
const codeIn = (m: OutboxMail) => /\b(\d{6})\b/.exec(m.text)![1]!;
const tokenIn = (m: OutboxMail) => new URL(/https?:\/\/\S+/.exec(m.text)![0]).searchParams.get('token')!;

describe('secrets in mail never reach the log', () => {
  const secrets: string[] = [];

  it('a sign-in with an emailed code', async () => {
    const c = new Client(t.app);
    const { userId } = (await c.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password })).json();
    expect((await c.post('/_api/auth/mfa-email', { userId })).statusCode).toBe(200);
    const mail = lastTo(admin.email);
    expect(mail.subject).not.toMatch(/\d{6}/);
    const code = codeIn(mail);
    secrets.push(code);
    expect((await c.post('/_api/auth/mfa-verify-email', { userId, token: code })).statusCode).toBe(200);

    // Email MFA setup (another code), so the admin can invite below.
    expect((await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: 'setup' })).statusCode).toBe(200);
    const setup = codeIn(lastTo(admin.email));
    secrets.push(setup);
    expect((await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: setup })).json().message).toBe(
      MSG.emailEnabled,
    );

    await t.ctx.db
      .updateTable('featureFlags')
      .set({ enabled: false })
      .where('organizationId', '=', admin.organizationId)
      .where('flagName', '=', 'MFA_USER_MANAGEMENT')
      .execute();
    const invitee = 'quiet.invitee@firm.test';
    expect((await c.post('/_api/settings/users/invite', { email: invitee, role: 'user' })).statusCode).toBe(200);
    secrets.push(tokenIn(lastTo(invitee)));
  });

  it('every other call that takes a token or code: system MFA, the export with ?mfaToken=, invitation verify and accept, links', async () => {
    const c = new Client(t.app);
    const { userId } = (await c.post('/_api/auth/login_with_password', { email: admin.email, password: admin.password })).json();
    expect((await c.post('/_api/auth/mfa-email', { userId })).statusCode).toBe(200);
    const signIn = codeIn(lastTo(admin.email));
    secrets.push(signIn);
    expect((await c.post('/_api/auth/mfa-verify-email', { userId, token: signIn })).statusCode).toBe(200);

    // A signed-in code for the system MFA prompt buys a token; the export takes it in the query string or a header.
    expect((await c.post('/_api/auth/mfa-email', { userId })).statusCode).toBe(200);
    const action = codeIn(lastTo(admin.email));
    secrets.push(action);
    const verified = await c.post('/_api/auth/verifySystemMfa', { operation: 'EXPORT_AUDIT_LOGS', mfaToken: action });
    expect(verified.statusCode).toBe(200);
    const systemToken: string = verified.json().systemMfaToken;
    secrets.push(systemToken);
    const viaQuery = await c.get(`/_api/audit-logs/export?limit=5&mfaToken=${encodeURIComponent(systemToken)}`);
    expect(viaQuery.statusCode).toBe(200);
    expect(viaQuery.body.split('\r\n')[0]).toBe(`\uFEFF${AUDIT_CSV_COLUMNS.join(',')}`);
    expect((await c.get('/_api/audit-logs/export?limit=5', { 'x-mfa-token': systemToken })).statusCode).toBe(200);
    // The parameter's name percent-encoded is still the parameter (and still kept out of the log).
    expect((await c.get(`/_api/audit-logs/export?limit=1&mfa%54oken=${encodeURIComponent(systemToken)}`)).statusCode).toBe(200);
    const wrong = 'WrongSystemToken0123456789abcdefghijklmnopqr';
    secrets.push(wrong);
    expect((await c.get(`/_api/audit-logs/export?mfaToken=${wrong}`)).statusCode).toBe(401);

    // The invitation sent in the first step: its page link, verify and accept.
    const invitation = tokenIn(lastTo('quiet.invitee@firm.test'));
    const anon = new Client(t.app, '10.7.0.2');
    await anon.get(`/accept-invitation?token=${invitation}`);
    expect((await anon.post('/_api/auth/invitation-verify', { token: invitation })).statusCode).toBe(200);
    const accepted = await anon.post('/_api/auth/invitation-accept', {
      token: invitation,
      fullName: 'Quiet Invitee',
      password: 'a quiet invitee password',
    });
    expect(accepted.statusCode).toBe(200);

    // Any other spelling of a token or code in a query string, and a signed link's signature.
    const spellings = ['SetupTokenSecret1', 'PlainCodeSecret2', 'RecoveryCodeSecret3', 'UpperTokenSecret4', 'SignatureSecret5'];
    secrets.push(...spellings);
    await anon.get(`/setup?setupToken=${spellings[0]}`);
    await anon.get(`/_api/auth/session?code=${spellings[1]}&recoveryCode=${spellings[2]}&TOKEN=${spellings[3]}&sig=${spellings[4]}&page=2`);

    const log = logLines.join('');
    expect(log).toContain('/_api/audit-logs/export?limit=5&mfaToken=[REDACTED]');
    expect(log).toContain('/_api/audit-logs/export?limit=1&mfa%54oken=[REDACTED]');
    expect(log).toContain('/_api/auth/session?code=[REDACTED]&recoveryCode=[REDACTED]&TOKEN=[REDACTED]&sig=[REDACTED]&page=2');
  });

  it('a password reset: both addresses get the same answer and the same queued work; only the known one is mailed', async () => {
    const c = new Client(t.app, '10.7.0.1');
    const jobsBefore = await t.ctx.jobs.pendingCount(PASSWORD_RESET_MAIL_JOB);
    const mailsBefore = outbox().length;
    const unknown = await c.post('/_api/auth/password-reset', { email: 'ghost.quiet@firm.test' });
    expect(await t.ctx.jobs.pendingCount(PASSWORD_RESET_MAIL_JOB)).toBe(jobsBefore + 1);
    const known = await c.post('/_api/auth/password-reset', { email: admin.email });
    expect(await t.ctx.jobs.pendingCount(PASSWORD_RESET_MAIL_JOB)).toBe(jobsBefore + 2);
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json().message).toBe(MSG.resetRequested);
    // Neither request made a token or sent anything itself.
    expect(outbox().length).toBe(mailsBefore);
    expect(await t.ctx.db.selectFrom('passwordResetTokens').select('id').where('userId', '=', admin.userId).execute()).toHaveLength(0);

    expect(await t.ctx.jobs.runDueJobs([PASSWORD_RESET_MAIL_JOB])).toEqual({ completed: 2, failed: 0 });
    const sent = outbox().slice(mailsBefore);
    expect(sent.map((m) => m.to)).toEqual([admin.email]);
    const token = tokenIn(sent[0]!);
    secrets.push(token);
    const reset = await c.post('/_api/auth/password-reset-verify', { token, newPassword: 'a new quiet password' });
    expect(reset.json().message).toBe(MSG.resetSuccess);
  });

  it('leaves no code, token or link in the log', () => {
    const log = logLines.join('');
    expect(log).toContain('mail written to the outbox');
    expect(secrets).toHaveLength(13);
    // A code is looked for as a number of its own (a timestamp may hold the same six digits by chance).
    for (const secret of secrets) expect(new RegExp(`(?<![0-9A-Za-z_-])${secret}(?![0-9A-Za-z_-])`).test(log)).toBe(false);
    // A link's page may be logged as requested, its token never.
    expect(log).toContain('/accept-invitation?token=[REDACTED]');
    expect(log).not.toMatch(/accept-invitation\?token=(?!\[REDACTED\])/);
    expect(log).not.toMatch(/password-reset\?token=(?!\[REDACTED\])/);
  });
});
