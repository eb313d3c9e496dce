import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_TOOLING_MSG as T } from '@strongroom/contracts';
import type { TestApp } from '../../../test/helpers.js';
import { auditActions, newOrganizationWithTotp, ok, systemMfaToken, type Member } from '../../../test/factories.js';
import * as fx from './security-tooling-fixtures.js';

/**
 * Security policies of an organization's administrators, through their calls: versioned, audited, unique by
 * name, each change under the policy row lock; and the tooling is for administrators only.
 */
let t: TestApp;
let admin: Member;
let user: Member;
let guest: Member;
let other: Member;

beforeAll(async () => {
  ({ t, admin, user, guest, other } = await fx.startToolingApp());
});
afterAll(async () => {
  await t?.shutdown();
});

const newFirm = (name: string) => fx.newFirm(t, name);
const { policy, manage, errorOf } = fx;

describe('security policies', () => {
  it('creates, lists, updates to a new version with history, and deletes a policy, each audited', async () => {
    const created = ok(await manage(admin, { operation: 'create', policy: policy('Retention_Rules', { minRetentionYears: 5 }) }));
    expect(created.message).toBe(T.policyCreated('Retention_Rules'));
    expect(created.policy).toMatchObject({
      name: 'Retention_Rules',
      version: 1,
      isActive: true,
      definition: { minRetentionYears: 5 },
      organizationId: admin.organizationId,
    });

    const updated = ok(
      await manage(admin, { operation: 'update', policy: policy('Retention_Rules', { minRetentionYears: 6 }, { version: 1 }) }),
    );
    expect(updated.message).toBe(T.policyUpdated('Retention_Rules', 2));
    expect(updated.policy).toMatchObject({ version: 2, definition: { minRetentionYears: 6 } });

    // A client that read version 1 is refused once the policy is at version 2.
    const stale = await manage(admin, { operation: 'update', policy: policy('Retention_Rules', { minRetentionYears: 9 }, { version: 1 }) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: T.policyVersionStale, details: { reason: 'VERSION_MISMATCH', currentVersion: 2 } });

    const list = ok(await admin.client.get('/_api/security/policies'));
    expect(list.policies.map((p: { name: string; version: number }) => [p.name, p.version])).toEqual([['Retention_Rules', 2]]);

    const history = await t.ctx.db
      .selectFrom('securityPolicyVersions')
      .select(['operation', 'version', 'definition'])
      .where('policyId', '=', created.policy.id)
      .orderBy('changedAt')
      .orderBy('version')
      .execute();
    expect(history.map((h) => [h.operation, h.version, h.definition])).toEqual([
      ['create', 1, { minRetentionYears: 5 }],
      ['update', 2, { minRetentionYears: 6 }],
    ]);

    const deleted = ok(await manage(admin, { operation: 'delete', policyName: 'Retention_Rules' }));
    expect(deleted).toEqual({ message: T.policyDeleted('Retention_Rules'), policy: null });
    expect(ok(await admin.client.get('/_api/security/policies')).policies).toEqual([]);
    // The name is free again; the deleted policy's history stays.
    ok(await manage(admin, { operation: 'create', policy: policy('Retention_Rules') }));
    ok(await manage(admin, { operation: 'delete', policyName: 'Retention_Rules' }));

    const actions = (await auditActions(t, admin.organizationId)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['SECURITY_POLICY_CREATED', 'SECURITY_POLICY_UPDATED', 'SECURITY_POLICY_DELETED']));
  });

  it('refuses a second policy of the same name, and unknown names on update and delete', async () => {
    ok(await manage(admin, { operation: 'create', policy: policy('Unique_Name') }));
    const again = await manage(admin, { operation: 'create', policy: policy('Unique_Name') });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: T.policyExists('Unique_Name'), details: { reason: 'NAME_TAKEN' } });
    expect(errorOf(await manage(admin, { operation: 'update', policy: policy('No_Such_Policy') }))).toEqual({
      status: 404,
      error: T.policyNotFound('No_Such_Policy'),
    });
    expect(errorOf(await manage(admin, { operation: 'delete', policyName: 'No_Such_Policy' }))).toEqual({
      status: 404,
      error: T.policyNotFound('No_Such_Policy'),
    });
    // Another organization's policy of that name is not theirs to change.
    expect(errorOf(await manage(other, { operation: 'delete', policyName: 'Unique_Name' }))).toEqual({
      status: 404,
      error: T.policyNotFound('Unique_Name'),
    });
    ok(await manage(admin, { operation: 'delete', policyName: 'Unique_Name' }));
  });

  it.each([
    [{ operation: 'create', policy: policy('ab') }, T.policyNameLength],
    [{ operation: 'create', policy: policy('x'.repeat(101)) }, T.policyNameLength],
    [{ operation: 'create', policy: policy('has space') }, T.policyNameChars],
    [{ operation: 'create', policy: policy('dash-name') }, T.policyNameChars],
    [{ operation: 'create', policy: { ...policy('Good_Name'), description: 'too short' } }, T.policyDescriptionLength],
    [{ operation: 'create', policy: { ...policy('Good_Name'), description: 'd'.repeat(501) } }, T.policyDescriptionLength],
    [{ operation: 'create', policy: policy('Good_Name', {}, { version: 0 }) }, T.policyVersion],
    [{ operation: 'create', policy: policy('Good_Name', {}, { version: 1.5 }) }, T.policyVersion],
    [{ operation: 'create' }, T.invalidOperationPayload],
    [{ operation: 'update', policyName: 'Good_Name' }, T.invalidOperationPayload],
    [{ operation: 'delete', policy: policy('Good_Name') }, T.invalidOperationPayload],
    [{ operation: 'rename', policyName: 'Good_Name' }, T.invalidOperation],
    [{ operation: 'create', policy: policy('Good_Name', { nested: { deep: true } }) }, T.policyDefinition],
  ])('refuses %j with its message', async (body, message) => {
    const res = await manage(admin, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
  });

  it('asks for a fresh code while MFA for system operations is on, after the rules of the request', async () => {
    const a = await newOrganizationWithTotp(t, 'Strict MFA LLP');
    // A request that breaks a rule is refused as such, without asking for a code.
    expect(errorOf(await manage(a, { operation: 'delete', policyName: 'No_Such_Policy' }))).toEqual({
      status: 404,
      error: T.policyNotFound('No_Such_Policy'),
    });
    const body = { operation: 'create', policy: policy('Needs_Code') };
    const asked = await manage(a, body);
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toMatchObject({ code: 'MFA_REQUIRED', mfaRequired: true });
    expect(ok(await admin.client.get('/_api/security/policies')).policies.map((p: { name: string }) => p.name)).not.toContain('Needs_Code');
    // A system MFA token of the session (bought with one authenticator code) covers both changes.
    const token = await systemMfaToken(a, 'MFA_SYSTEM_OPERATIONS');
    const done = ok(await manage(a, { ...body, mfaToken: token }));
    expect(done.policy).toMatchObject({ name: 'Needs_Code', version: 1 });
    expect(ok(await manage(a, { operation: 'update', policy: policy('Needs_Code'), mfaToken: token })).policy.version).toBe(2);
    ok(await manage(a, { operation: 'delete', policyName: 'Needs_Code', mfaToken: token }));
  });

  it('is for administrators only', async () => {
    for (const m of [user, guest]) {
      expect(errorOf(await manage(m, { operation: 'create', policy: policy('Not_Mine') }))).toEqual({ status: 403, error: T.adminsOnly });
      expect((await m.client.get('/_api/security/policies')).statusCode).toBe(403);
      expect((await m.client.post('/_api/security/compliance-check', {})).statusCode).toBe(403);
      expect((await m.client.post('/_api/security/vulnerability-scan', { targetType: 'NETWORK', targetIdentifier: 'x' })).statusCode).toBe(
        403,
      );
      expect((await m.client.post('/_api/security/security-assessment', { scanIds: [randomUUID()] })).statusCode).toBe(403);
    }
  });
});

describe('races (each change under the policy row lock)', () => {
  it('two creates of one name: one policy, the other 409; two updates from one version: one wins, the other 409', async () => {
    const firm = await newFirm('Race LLP');
    const create = await Promise.all([0, 1, 2].map(() => manage(firm, { operation: 'create', policy: policy('Raced_Name') })));
    expect(create.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const update = await Promise.all(
      [7, 8, 9].map((n) => manage(firm, { operation: 'update', policy: policy('Raced_Name', { minRetentionYears: n }, { version: 1 }) })),
    );
    expect(update.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const rows = await t.ctx.db
      .selectFrom('securityPolicies')
      .select(['version'])
      .where('organizationId', '=', firm.organizationId)
      .where('deletedAt', 'is', null)
      .execute();
    expect(rows).toEqual([{ version: 2 }]);
    const versions = await t.ctx.db
      .selectFrom('securityPolicyVersions')
      .select('version')
      .where('organizationId', '=', firm.organizationId)
      .execute();
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
  });
});
