import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, newOrganization, ok, type Member } from '../../../test/factories.js';

/** Security events and forensic notes a member's browser reports: the actions accepted, the ones refused. */
let t: TestApp;
let user: Member;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await newOrganization(t, 'Policy & Partners');
  user = await addMember(t, admin.organizationId, 'user');
});
afterAll(async () => {
  await t?.shutdown();
});

describe('client security logs', () => {
  it('accepts each of the 20 event actions and refuses others', async () => {
    ok(
      await user.client.post('/_api/security/event-log', {
        action: 'SUSPICIOUS_ACTIVITY_DETECTED',
        targetId: 'x',
        details: { note: 'seen' },
      }),
    );
    const bad = await user.client.post('/_api/security/event-log', { action: 'NOT_AN_ACTION' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MSG.securityActionInvalid);
    const empty = await user.client.post('/_api/security/forensic-log', { action: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(MSG.actionEmpty);
  });
});
