import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  auditCategoryOf,
  CLIENT_REPORT_ACTION_PREFIX,
  CLIENT_REPORT_CATEGORY,
  type AuditLogEntry,
  type AuditLogListResponse,
} from '@strongroom/contracts';
import { Client, createTestApp, type TestApp } from '../../../test/helpers.js';
import { newOrganization, ok, type Member } from '../../../test/factories.js';

/**
 * What a browser reports (security events, forensic notes) is kept apart from what the server itself records:
 * stored as CLIENT_REPORTED_<NAME>, never under one of the server's action names.
 */
let t: TestApp;
let admin: Member;
beforeAll(async () => {
  t = await createTestApp();
  admin = await newOrganization(t, 'Reports LLP');
});
afterAll(() => t.shutdown());

const list = async (query: string): Promise<AuditLogEntry[]> =>
  (ok(await admin.client.get(`/_api/audit-logs/list?limit=100&${query}`)) as AuditLogListResponse).logs;

describe('client reports are namespaced', () => {
  it('stores a reported INTEGRITY_CHECK_PASSED, LOGIN_SUCCESS or VAULT_MATTER as CLIENT_REPORTED_…, the name sent kept in details', async () => {
    const reports = [
      { url: '/_api/security/event-log', action: 'INTEGRITY_CHECK_PASSED', stored: 'CLIENT_REPORTED_INTEGRITY_CHECK_PASSED' },
      { url: '/_api/security/event-log', action: 'LOGIN_SUCCESS', stored: 'CLIENT_REPORTED_LOGIN_SUCCESS' },
      { url: '/_api/security/forensic-log', action: 'VAULT_MATTER', stored: 'CLIENT_REPORTED_VAULT_MATTER' },
      { url: '/_api/security/forensic-log', action: 'integrity check passed', stored: 'CLIENT_REPORTED_INTEGRITY_CHECK_PASSED' },
    ];
    for (const r of reports) {
      const { id } = ok(
        await admin.client.post(r.url, {
          action: r.action,
          targetId: 'm-1',
          // A report cannot claim to come from the server, nor name the address it came from.
          details: { note: 'seen', reportedBy: 'server', reportedAction: 'VAULT_MATTER', ipAddress: '203.0.113.9' },
        }),
      );
      const row = await t.ctx.db.selectFrom('auditLogs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.action).toBe(r.stored);
      expect(row.targetTable).toBe(r.url.endsWith('event-log') ? 'security_event' : 'forensic_log');
      expect(row.details).toMatchObject({ note: 'seen', reportedBy: 'client', reportedAction: r.action });
      expect(auditCategoryOf(row.action)).toBe(CLIENT_REPORT_CATEGORY);
      expect(AUDIT_ACTIONS).not.toContain(row.action);
      const [entry] = (await list(`search=${encodeURIComponent(r.stored.toLowerCase())}`)).filter((e) => e.id === id);
      expect(entry?.details).toMatchObject({ reportedBy: 'client', ipAddress: '127.0.0.1' });
    }
  });

  it("filtering the list by the server's own action finds the server's entries and none of the reports", async () => {
    // The server's own integrity check writes INTEGRITY_CHECK_PASSED.
    ok(await admin.client.post('/_api/security/integrity-check'));
    const passed = await list('actions=INTEGRITY_CHECK_PASSED');
    expect(passed.length).toBeGreaterThanOrEqual(1);
    for (const e of passed) {
      expect(e.action).toBe('INTEGRITY_CHECK_PASSED');
      expect(e.targetTable).not.toBe('security_event');
      expect(e.details).not.toHaveProperty('reportedBy');
    }
    for (const action of ['VAULT_MATTER', 'LOGIN_SUCCESS']) expect(await list(`actions=${action}`)).toEqual([]);
    // Searching finds the reports under their own names.
    const found = await list('search=client_reported_');
    expect(found.map((e) => e.action).sort()).toEqual([
      'CLIENT_REPORTED_INTEGRITY_CHECK_PASSED',
      'CLIENT_REPORTED_INTEGRITY_CHECK_PASSED',
      'CLIENT_REPORTED_LOGIN_SUCCESS',
      'CLIENT_REPORTED_VAULT_MATTER',
    ]);
  });

  it('no action name of the filter uses the client-report prefix', () => {
    for (const a of AUDIT_ACTIONS) expect(a.startsWith(CLIENT_REPORT_ACTION_PREFIX), a).toBe(false);
    expect(auditCategoryOf('INTEGRITY_CHECK_PASSED')).toBe('System Operations');
    expect(auditCategoryOf('VAULT_MATTER')).toBe('Matter Operations');
  });
});

describe('audit list rows', () => {
  it('carry createdAt (timestamp the same value) and the address inside details as well as at the top', async () => {
    const other = new Client(t.app, '198.51.100.23');
    other.cookies.clear();
    for (const [k, v] of admin.client.cookies) other.cookies.set(k, v);
    const { id } = ok(await other.post('/_api/security/forensic-log', { action: 'address check' }));
    const entry = (await list('search=address_check')).find((e) => e.id === id)!;
    expect(entry.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(entry.timestamp).toBe(entry.createdAt);
    const row = await t.ctx.db.selectFrom('auditLogs').select(['createdAt', 'ipAddress']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(entry.createdAt).toBe(new Date(row.createdAt).toISOString());
    expect(row.ipAddress).toBe('198.51.100.23');
    expect(entry.ipAddress).toBe('198.51.100.23');
    expect(entry.details).toMatchObject({ ipAddress: '198.51.100.23', reportedAction: 'address check' });
    // An entry with no address (written by a background job) says so in both places.
    const all = await list('');
    for (const e of all) if (e.details) expect(e.details.ipAddress).toBe(e.ipAddress);
  });
});
