/**
 * The MFA prompt promises that a code given once is not asked for again for 30 minutes. The archival panel's
 * statistics and its dry run are one risk class (both only count): one verification serves both for 30 minutes
 * and not after, while a real archival still asks for the organization class.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { newOrganizationWithTotp, ok, systemMfaToken, type TotpMember } from '../../../test/factories.js';

let t: TestApp;
let admin: TotpMember;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Reuse LLP');
});
afterAll(() => t.shutdown());

const stats = (token: string) => admin.client.get('/_api/system/archival-stats', { 'x-mfa-token': token });
const archive = (token: string, dryRun: boolean) =>
  admin.client.post('/_api/system/archive-audit-logs', { dryRun }, { 'x-mfa-token': token });

describe('one verification for the archival statistics', () => {
  it('serves the statistics and the dry run for 30 minutes, never a real archival, and nothing once expired', async () => {
    await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
    const token = await systemMfaToken(admin, 'VIEW_ARCHIVAL_STATS', 0);

    // The token lives 30 minutes from the verification.
    const row = await t.ctx.db
      .selectFrom('systemMfaTokens')
      .select(['expiresAt', 'createdAt'])
      .where('userId', '=', admin.userId)
      .orderBy('createdAt', 'desc')
      .executeTakeFirstOrThrow();
    const lifetime = new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime();
    expect(Math.abs(lifetime - 30 * 60_000)).toBeLessThan(5_000);

    expect(ok(await stats(token)).archivableLogsCount).toBe(0);
    const dry = ok(await archive(token, true));
    expect(dry).toMatchObject({ archivedCount: 0, dryRun: true, batches: 0, range: { oldest: null, newest: null } });
    expect(Date.parse(dry.range.before)).toBeLessThan(Date.now());
    // The same token, used again within its time, still serves both calls.
    expect((await stats(token)).statusCode).toBe(200);
    expect((await archive(token, true)).statusCode).toBe(200);

    // A real archival is of another class: the statistics' token does not serve it.
    const real = await archive(token, false);
    expect(real.statusCode).toBe(401);
    expect(real.json().code).toMatch(/^MFA_(INVALID|REQUIRED)$/);

    // Past its 30 minutes the token serves neither call: each asks for a code again.
    await t.ctx.db
      .updateTable('systemMfaTokens')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('userId', '=', admin.userId)
      .execute();
    for (const r of [await stats(token), await archive(token, true)]) {
      expect(r.statusCode).toBe(401);
      expect(r.json().code).toMatch(/^MFA_(INVALID|REQUIRED)$/);
    }
  });

  it('a token of the organization class does not serve the statistics or the dry run', async () => {
    await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
    const token = await systemMfaToken(admin, 'MFA_SYSTEM_OPERATIONS', 0);
    expect((await stats(token)).statusCode).toBe(401);
    expect((await archive(token, true)).statusCode).toBe(401);
    expect(ok(await archive(token, false))).toMatchObject({ archivedCount: 0, dryRun: false, batches: 0 });
  });
});
