import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MSG, SECURITY_EVENT_ACTIONS } from '@strongroom/contracts';
import { Client, createOrgWithAdmin, createTestApp, signInWithEmailCode, type TestApp } from './helpers.js';
import { addMember, newOrganization, type Member } from './factories.js';
import { REPORT_LIMIT } from '../src/features/security/security.service.js';

let t: TestApp;
let admin: Member;
let orgId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await newOrganization(t, 'Acme LLP');
  orgId = admin.organizationId;
});
afterAll(() => t.shutdown());

const reports = async (organizationId = orgId) =>
  Number(
    (
      await t.ctx.db
        .selectFrom('auditLogs')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('organizationId', '=', organizationId)
        .where('targetTable', 'in', ['security_event', 'forensic_log'])
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('security event and forensic logs', () => {
  it('writes each of the 20 event actions to the audit log as CLIENT_REPORTED_<ACTION>, marked as reported by the client', async () => {
    for (const action of SECURITY_EVENT_ACTIONS) {
      const r = await admin.client.post('/_api/security/event-log', { action, targetId: 'matter-1', details: { note: 'x' } });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ success: true });
    }
    const rows = await t.ctx.db
      .selectFrom('auditLogs')
      .selectAll()
      .where('organizationId', '=', orgId)
      .where('targetTable', '=', 'security_event')
      .execute();
    expect(rows.map((r) => r.action).sort()).toEqual(SECURITY_EVENT_ACTIONS.map((a) => `CLIENT_REPORTED_${a}`).sort());
    for (const row of rows) expect(row.details).toMatchObject({ note: 'x', reportedBy: 'client', reportedAction: row.action.slice(16) });
  });

  it('refuses an unknown action and an empty forensic action', async () => {
    const user = await addMember(t, orgId, 'user');
    const bad = await user.client.post('/_api/security/event-log', { action: 'login success' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MSG.securityActionInvalid);
    const empty = await user.client.post('/_api/security/forensic-log', { action: '   ' });
    expect(empty.json().error).toBe(MSG.actionEmpty);
    const ok = await user.client.post('/_api/security/forensic-log', { action: 'viewed privileged memo', targetId: '42' });
    expect(ok.statusCode).toBe(200);
    const row = await t.ctx.db
      .selectFrom('auditLogs')
      .select(['action', 'targetId'])
      .where('id', '=', ok.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ action: 'CLIENT_REPORTED_VIEWED_PRIVILEGED_MEMO', targetId: '42' });
  });

  it('needs a session', async () => {
    const anon = new Client(t.app);
    expect((await anon.post('/_api/security/event-log', { action: 'LOGOUT' })).statusCode).toBe(401);
    expect((await anon.post('/_api/security/forensic-log', { action: 'x' })).statusCode).toBe(401);
  });

  it('refuses guests and users still at the MFA setup wall, and records nothing for them', async () => {
    const before = await reports();
    const guest = await addMember(t, orgId, 'guest');
    for (const url of ['/_api/security/event-log', '/_api/security/forensic-log']) {
      const r = await guest.client.post(url, { action: 'LOGOUT' });
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toBe(MSG.accessDenied('guest'));
    }
    const fresh = await createOrgWithAdmin(t, 'Not Yet Enrolled LLP');
    const walled = await signInWithEmailCode(t, fresh);
    for (const url of ['/_api/security/event-log', '/_api/security/forensic-log']) {
      const r = await walled.post(url, { action: 'MFA_SETUP_INITIATED' });
      expect(r.statusCode).toBe(403);
      expect(r.json().code).toBe('PERMISSION_ERROR');
    }
    expect(await reports()).toBe(before);
    expect(await reports(fresh.organizationId)).toBe(0);
  });

  it('refuses a 900 KB report with a clear message', async () => {
    const user = await addMember(t, orgId, 'user');
    const before = await reports();
    const r = await user.client.post('/_api/security/forensic-log', { action: 'dump', details: { blob: 'x'.repeat(900 * 1024) } });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('Details cannot exceed 16 KB.');
    expect(await reports()).toBe(before);
  });

  it(`lets one user file at most ${REPORT_LIMIT.perWindow} reports a minute, even 50 at once; others are not affected`, async () => {
    const user = await addMember(t, orgId, 'user');
    const before = await reports();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? user.client.post('/_api/security/event-log', { action: 'SUSPICIOUS_ACTIVITY_DETECTED', details: { i } })
          : user.client.post('/_api/security/forensic-log', { action: `note ${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(REPORT_LIMIT.perWindow);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50 - REPORT_LIMIT.perWindow);
    const limited = answers.find((a) => a.statusCode === 429)!;
    expect(limited.json()).toMatchObject({ error: MSG.tooManyRequests, code: 'RATE_LIMIT_EXCEEDED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(REPORT_LIMIT.windowSeconds);
    expect(await reports()).toBe(before + REPORT_LIMIT.perWindow);
    // Another user of the same organization still reports.
    const colleague = await addMember(t, orgId, 'user');
    expect((await colleague.client.post('/_api/security/event-log', { action: 'LOGOUT' })).statusCode).toBe(200);
    // Once the window is over (moved back here rather than waited for), the user may report again.
    await t.ctx.db
      .updateTable('authThrottle')
      .set({ windowStartedAt: new Date(Date.now() - (REPORT_LIMIT.windowSeconds + 1) * 1000) })
      .where('key', '=', `client-report:${user.userId}`)
      .execute();
    expect((await user.client.post('/_api/security/event-log', { action: 'LOGOUT' })).statusCode).toBe(200);
  });
});
