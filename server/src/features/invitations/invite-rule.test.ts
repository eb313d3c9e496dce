import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canInviteMembers, invitableRoles, type Role, type SessionUser } from '@strongroom/contracts';
import { addMember, newOrganization, ok, type Member } from '../../../test/factories.js';
import { createTestApp, uniqueEmail, type TestApp } from '../../../test/helpers.js';

// One rule decides who may invite: the server's check and the web's Invite User buttons both read
// canInviteMembers. Each kind of person asks the real API to invite, and the answer must agree with the rule
// evaluated on the user the web is given (GET /_api/auth/session).

let t: TestApp;
let people: { kind: string; member: Member; mayInvite: boolean; invites: Role }[];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await newOrganization(t, 'Rule LLP');
  await t.ctx.db
    .updateTable('featureFlags')
    .set({ enabled: false })
    .where('organizationId', '=', admin.organizationId)
    .where('flagName', '=', 'MFA_USER_MANAGEMENT')
    .execute();
  const org = admin.organizationId;
  people = [
    { kind: 'an administrator', member: admin, mayInvite: true, invites: 'admin' },
    {
      kind: 'a user with canInviteUsers',
      member: await addMember(t, org, 'user', { canInviteUsers: true }),
      mayInvite: true,
      invites: 'guest',
    },
    {
      kind: 'a user with canManageUsers',
      member: await addMember(t, org, 'user', { canManageUsers: true }),
      mayInvite: true,
      invites: 'user',
    },
    { kind: 'a plain member', member: await addMember(t, org, 'user'), mayInvite: false, invites: 'guest' },
    {
      kind: 'a guest, even with canInviteUsers set',
      member: await addMember(t, org, 'guest', { canInviteUsers: true }),
      mayInvite: false,
      invites: 'guest',
    },
  ];
});
afterAll(() => t.shutdown());

describe('who may invite', () => {
  it('the server answers 200 exactly to those the rule lets invite, and 403 to the others', async () => {
    for (const { kind, member, mayInvite, invites } of people) {
      const seen: SessionUser = ok(await member.client.get('/_api/auth/session')).user;
      expect(canInviteMembers(seen), kind).toBe(mayInvite);
      const r = await member.client.post('/_api/settings/users/invite', { email: uniqueEmail('invitee'), role: invites });
      expect(r.statusCode, `${kind}: ${r.body}`).toBe(mayInvite ? 200 : 403);
    }
  });

  it('each may invite exactly the roles the rule lists for them', async () => {
    for (const { kind, member } of people) {
      const seen: SessionUser = ok(await member.client.get('/_api/auth/session')).user;
      const allowed = invitableRoles(seen);
      for (const role of ['admin', 'user', 'guest'] as const) {
        const r = await member.client.post('/_api/settings/users/invite', { email: uniqueEmail('invitee'), role });
        expect(r.statusCode, `${kind} inviting ${role}: ${r.body}`).toBe(allowed.includes(role) ? 200 : 403);
      }
    }
  });
});
