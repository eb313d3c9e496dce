import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, SECURITY_EVENT_ACTIONS } from '@strongroom/contracts';
import { Client, createOrgWithAdmin, createTestApp, signInWithEmailCode, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let c: Client;
let orgId: string;
beforeAll(async () => {
  t = await createTestApp();
  const acct = await createOrgWithAdmin(t);
  orgId = acct.organizationId;
  c = await signInWithEmailCode(t, acct);
});
afterAll(() => t.shutdown());

describe('security event and forensic logs', () => {
  it('writes each of the 20 event actions to the audit log, marked as reported by the client', async () => {
    for (const action of SECURITY_EVENT_ACTIONS) {
      const r = await c.post('/_api/security/event-log', { action, targetId: 'matter-1', details: { note: 'x' } });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ success: true });
    }
    const rows = await t.ctx.db.selectFrom('auditLogs').selectAll().where('organizationId', '=', orgId).where('targetTable', '=', 'security_event').execute();
    expect(rows.map((r) => r.action).sort()).toEqual([...SECURITY_EVENT_ACTIONS].sort());
    expect(rows[0].details).toMatchObject({ note: 'x', reportedBy: 'client' });
  });

  it('refuses an unknown action and an empty forensic action', async () => {
    const bad = await c.post('/_api/security/event-log', { action: 'login success' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MSG.securityActionInvalid);
    const empty = await c.post('/_api/security/forensic-log', { action: '   ' });
    expect(empty.json().error).toBe(MSG.actionEmpty);
    const ok = await c.post('/_api/security/forensic-log', { action: 'viewed privileged memo', targetId: '42' });
    expect(ok.statusCode).toBe(200);
    const row = await t.ctx.db.selectFrom('auditLogs').select(['action', 'targetId']).where('id', '=', ok.json().id).executeTakeFirstOrThrow();
    expect(row).toEqual({ action: 'FORENSIC_VIEWED_PRIVILEGED_MEMO', targetId: '42' });
  });

  it('needs a session', async () => {
    const anon = new Client(t.app);
    expect((await anon.post('/_api/security/event-log', { action: 'LOGOUT' })).statusCode).toBe(401);
    expect((await anon.post('/_api/security/forensic-log', { action: 'x' })).statusCode).toBe(401);
  });
});
