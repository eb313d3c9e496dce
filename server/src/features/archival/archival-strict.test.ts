import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { newOrganization, type Member } from '../../../test/factories.js';

/** The archival calls refuse fields they do not know, with the answer every other call gives. */
let t: TestApp;
let admin: Member;
beforeAll(async () => {
  t = await createTestApp();
  admin = await newOrganization(t, 'Strict Archive LLP');
});
afterAll(() => t.shutdown());

describe('archival calls reject unknown fields', () => {
  it('archive-audit-logs, retrieve-archived and check-retrievals answer 400 naming the field, like any other call', async () => {
    const elsewhere = await admin.client.post('/_api/security/event-log', { action: 'LOGOUT', extra: 1 });
    expect(elsewhere.statusCode).toBe(400);
    const expected = { error: MSG.unknownFields(['extra']), code: 'VALIDATION_ERROR' };
    expect(elsewhere.json()).toMatchObject(expected);

    const logId = (
      await t.ctx.db.selectFrom('auditLogs').select('id').where('organizationId', '=', admin.organizationId).executeTakeFirstOrThrow()
    ).id;
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/_api/system/archive-audit-logs', { dryRun: true }],
      ['/_api/audit-logs/retrieve-archived', { logId, organizationId: admin.organizationId }],
      ['/_api/audit-logs/check-retrievals', { organizationId: admin.organizationId, logIds: [logId] }],
    ];
    for (const [url, body] of calls) {
      const r = await admin.client.post(url, { ...body, extra: 1 });
      expect(r.statusCode, url).toBe(400);
      expect(r.json(), url).toMatchObject(expected);
      // Without the stray field the same body gets past validation (to the MFA prompt, or an answer).
      const plain = await admin.client.post(url, body);
      expect(plain.statusCode, url).not.toBe(400);
    }
    const two = await admin.client.post('/_api/audit-logs/check-retrievals', {
      organizationId: admin.organizationId,
      all: true,
      since: 'x',
    });
    expect(two.json().error).toBe(MSG.unknownFields(['all', 'since']));
  });
});
