import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG, SECURITY_TOOLING_MSG as T, type ComplianceReport, type VulnerabilityScanResponse } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createMatter,
  newOrganization,
  newOrganizationWithTotp,
  ok,
  systemMfaToken,
  uploadFile,
  type Member,
} from '../../../test/factories.js';
import { startS3Server } from '../../../test/s3-server.js';
import { compareVersions, isAffected } from './security-scan.js';
import { riskLevelOf, runVulnerabilityScan } from './security-tooling.service.js';

/**
 * The security tooling of an organization's administrators, through its calls: policies (versioned, audited),
 * the compliance check against facts arranged in the database and the object store, vulnerability scans of the
 * running installation, and assessments combining scans.
 */

const DAY = 86_400_000;
let t: TestApp;
let admin: Member;
let user: Member;
let guest: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp();
  admin = await newFirm('Policy & Partners');
  user = await addMember(t, admin.organizationId, 'user');
  guest = await addMember(t, admin.organizationId, 'guest');
  other = await newFirm('Other Firm LLP');
});
afterAll(async () => {
  await t?.shutdown();
});

/**
 * A new firm whose administrator manages policies without a fresh code each time (MFA for system operations off;
 * the test 'asks for a fresh code ...' covers it on).
 */
async function newFirm(name: string): Promise<Member> {
  const m = await newOrganization(t, name);
  await t.ctx.db
    .insertInto('featureFlags')
    .values({ organizationId: m.organizationId, flagName: 'MFA_SYSTEM_OPERATIONS', enabled: false, updatedAt: new Date() })
    .onConflict((oc) => oc.columns(['organizationId', 'flagName']).doUpdateSet({ enabled: false }))
    .execute();
  return m;
}

const policy = (name: string, definition: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  name,
  description: 'A policy of the firm for its records.',
  definition,
  ...extra,
});
const manage = (m: Member, body: unknown) => m.client.post('/_api/security/policy-manage', body);
const check = (report: ComplianceReport, name: string) => report.results.find((r) => r.name === name)!;
const compliance = async (m: Member = admin): Promise<ComplianceReport> => ok(await m.client.post('/_api/security/compliance-check', {}));
const scan = async (targetType: string, m: Member = admin): Promise<VulnerabilityScanResponse> =>
  ok(await m.client.post('/_api/security/vulnerability-scan', { targetType, targetIdentifier: `strongroom ${targetType.toLowerCase()}` }));

function errorOf(res: { statusCode: number; json(): { error: string } }) {
  return { status: res.statusCode, error: res.json().error };
}

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

describe('compliance check', () => {
  it('reports each check compliant for a firm in order, stored and audited', async () => {
    const firm = await newFirm('Orderly LLP');
    const report = await compliance(firm);
    expect(report.organizationId).toBe(firm.organizationId);
    expect(report.results.map((r) => [r.name, r.status])).toEqual([
      ['MFA_ENROLLMENT', 'compliant'],
      ['RETENTION_MINIMUM', 'compliant'],
      ['VAULT_LOCKS', 'compliant'],
      ['AUDIT_CHAIN', 'compliant'],
      ['ARCHIVAL_CURRENT', 'compliant'],
      ['ADMIN_SIGN_IN_REVIEW', 'compliant'],
    ]);
    expect(report.summary).toEqual({ totalChecks: 6, compliant: 6, nonCompliant: 0, errors: 0 });
    const stored = await t.ctx.db
      .selectFrom('complianceReports')
      .select(['organizationId', 'summary'])
      .where('id', '=', report.reportId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ organizationId: firm.organizationId, summary: report.summary });
    expect((await auditActions(t, firm.organizationId)).map((a) => a.action)).toContain('COMPLIANCE_CHECK_COMPLETED');
  });

  it('finds an active user without MFA', async () => {
    const firm = await newFirm('No MFA LLP');
    const member = await addMember(t, firm.organizationId, 'user');
    await t.ctx.db.updateTable('users').set({ mfaEnabled: false, mfaPrimaryMethod: null }).where('id', '=', member.userId).execute();
    const r = check(await compliance(firm), 'MFA_ENROLLMENT');
    expect(r.status).toBe('non_compliant');
    expect(r.detail).toContain(member.email);
    // Deactivated, the account no longer counts.
    await t.ctx.db.updateTable('users').set({ isActive: false }).where('id', '=', member.userId).execute();
    expect(check(await compliance(firm), 'MFA_ENROLLMENT').status).toBe('compliant');
  });

  it("holds the default retention to the strictest active policy's minimum", async () => {
    const firm = await newFirm('Retention LLP');
    await t.ctx.db.updateTable('organizations').set({ defaultRetentionYears: 7 }).where('id', '=', firm.organizationId).execute();
    ok(await manage(firm, { operation: 'create', policy: policy('Records_Act', { minRetentionYears: 6 }) }));
    expect(check(await compliance(firm), 'RETENTION_MINIMUM')).toMatchObject({ status: 'compliant', policies: ['Records_Act'] });
    ok(await manage(firm, { operation: 'create', policy: policy('Bar_Rules', { minRetentionYears: 10 }) }));
    const r = check(await compliance(firm), 'RETENTION_MINIMUM');
    expect(r).toMatchObject({ status: 'non_compliant', policies: ['Bar_Rules', 'Records_Act'] });
    expect(r.detail).toContain('below the minimum of 10 years');
    // An inactive policy does not count.
    ok(await manage(firm, { operation: 'update', policy: policy('Bar_Rules', { minRetentionYears: 10 }, { isActive: false }) }));
    expect(check(await compliance(firm), 'RETENTION_MINIMUM').status).toBe('compliant');
  });

  it('checks vaulted files in the object store: locked and unchanged, or what is wrong', async () => {
    const firm = await newFirm('Vault LLP');
    const matter = await createMatter(firm.client);
    const bytes = Buffer.from('engagement letter, signed');
    const file = await uploadFile(t, firm.client, matter.id, 'letter.pdf', bytes);
    const retainUntil = new Date(Date.now() + 365 * DAY);
    const key = `vault/${firm.organizationId}/${matter.id}/${file.id}`;
    await t.ctx.store.putLocked({
      key,
      body: bytes,
      contentType: 'application/pdf',
      lock: { mode: 'COMPLIANCE', retainUntil, legalHold: false },
    });
    const info = (await t.ctx.store.vaultInfo(key))!;
    const row = await t.ctx.db
      .insertInto('vaultObjects')
      .values({
        organizationId: firm.organizationId,
        matterId: matter.id,
        nodeId: file.id,
        path: 'letter.pdf',
        objectKey: key,
        versionId: info.versionId,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
        storageClass: null,
        retainUntil,
        legalHold: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(check(await compliance(firm), 'VAULT_LOCKS')).toMatchObject({
      status: 'compliant',
      detail: expect.stringContaining('all 1 vaulted files'),
    });

    // The recorded sha256 and the bytes in the store disagree: the check names the file.
    await t.ctx.db
      .updateTable('vaultObjects')
      .set({ sha256: 'f'.repeat(64) })
      .where('id', '=', row.id)
      .execute();
    const changed = check(await compliance(firm), 'VAULT_LOCKS');
    expect(changed.status).toBe('non_compliant');
    expect(changed.detail).toContain('letter.pdf: content changed');

    // The vault promised a longer lock than the object carries.
    await t.ctx.db
      .updateTable('vaultObjects')
      .set({ sha256: createHash('sha256').update(bytes).digest('hex'), retainUntil: new Date(Date.now() + 2 * 365 * DAY) })
      .where('id', '=', row.id)
      .execute();
    expect(check(await compliance(firm), 'VAULT_LOCKS').detail).toContain('letter.pdf: locked only until');

    // A vault row whose object is not in the store at all.
    await t.ctx.db
      .updateTable('vaultObjects')
      .set({ objectKey: `${key}-missing`, retainUntil })
      .where('id', '=', row.id)
      .execute();
    expect(check(await compliance(firm), 'VAULT_LOCKS').detail).toContain('letter.pdf: missing from the vault');
  });

  it('finds a broken audit chain', async () => {
    const firm = await newFirm('Chain LLP');
    await createMatter(firm.client);
    expect(check(await compliance(firm), 'AUDIT_CHAIN').status).toBe('compliant');
    const entry = await t.ctx.db
      .selectFrom('auditLogs')
      .select('id')
      .where('chainKey', '=', firm.organizationId)
      .where('action', '=', 'CREATE_MATTER')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .updateTable('auditLogs')
      .set({ details: JSON.stringify({ matterName: 'Rewritten' }) })
      .where('id', '=', entry.id)
      .execute();
    const r = check(await compliance(firm), 'AUDIT_CHAIN');
    expect(r.status).toBe('non_compliant');
    expect(r.detail).toContain('broken');
  });

  it('finds archival overdue when entries older than 180 days are still in the database', async () => {
    const firm = await newFirm('Archive LLP');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(Date.now() - 200 * DAY));
      const audit = auditFor(
        { organizationId: firm.organizationId, actor: { id: firm.userId, name: 'Old Actor', email: firm.email } },
        { ip: '10.0.0.9' },
      );
      await t.ctx.db
        .transaction()
        .execute((trx) => audit(trx, 'CREATE_MATTER', { table: 'matters', id: 'old-1' }, { matterName: 'Old matter' }));
    } finally {
      vi.useRealTimers();
    }
    const r = check(await compliance(firm), 'ARCHIVAL_CURRENT');
    expect(r.status).toBe('non_compliant');
    expect(r.detail).toContain('1 log entries older than 180 days');
    // A policy that allows a longer age makes the same entry current.
    ok(await manage(firm, { operation: 'create', policy: policy('Long_Archive', { archiveAfterDays: 365 }) }));
    expect(check(await compliance(firm), 'ARCHIVAL_CURRENT')).toMatchObject({ status: 'compliant', policies: ['Long_Archive'] });
  });

  it('finds an administrator who has not signed in within 90 days', async () => {
    const firm = await newFirm('Review LLP');
    const second = await addMember(t, firm.organizationId, 'admin');
    const old = new Date(Date.now() - 120 * DAY);
    await t.ctx.db.updateTable('users').set({ createdAt: old }).where('id', '=', second.userId).execute();
    await t.ctx.db.updateTable('sessions').set({ createdAt: old }).where('userId', '=', second.userId).execute();
    const r = check(await compliance(firm), 'ADMIN_SIGN_IN_REVIEW');
    expect(r.status).toBe('non_compliant');
    expect(r.detail).toContain(second.email);
    expect(r.detail).not.toContain(firm.email);
    // A stricter review window from a policy.
    ok(await manage(firm, { operation: 'create', policy: policy('Review_Often', { adminSignInReviewDays: 200 }) }));
    expect(check(await compliance(firm), 'ADMIN_SIGN_IN_REVIEW').status).toBe('compliant');
  });
});

describe('vulnerability scans', () => {
  it.each([
    [{ targetType: 'SERVER', targetIdentifier: 'x' }, T.targetTypeInvalid],
    [{ targetType: 'NETWORK', targetIdentifier: '' }, T.targetIdentifierEmpty],
    [{ targetType: 'NETWORK', targetIdentifier: '   ' }, T.targetIdentifierEmpty],
    [{ targetType: 'NETWORK' }, T.targetIdentifierEmpty],
  ])('refuses %j with its message', async (body, message) => {
    const res = await admin.client.post('/_api/security/vulnerability-scan', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
  });

  it('NETWORK: an http APP_URL and no trusted proxy are found; the scan is stored with its findings and audited', async () => {
    const res = await scan('NETWORK');
    const checks = res.findings.map((f) => [f.check, f.severity]);
    expect(checks).toContainEqual(['APP_URL_NOT_HTTPS', 'MEDIUM']);
    expect(checks).toContainEqual(['HSTS_NOT_POSSIBLE', 'INFO']);
    expect(checks).toContainEqual(['TRUST_PROXY_UNSET', 'INFO']);
    expect(res.summary.totalVulnerabilities).toBe(res.findings.filter((f) => f.severity !== 'INFO').length);
    expect(res.message).toBe(T.scanFound(res.summary.totalVulnerabilities));
    expect(res.assessmentId).toBeNull();
    const stored = await t.ctx.db.selectFrom('vulnerabilityFindings').select('checkName').where('scanId', '=', res.scanId).execute();
    expect(stored.map((s) => s.checkName).sort()).toEqual(res.findings.map((f) => f.check).sort());
    expect((await auditActions(t, admin.organizationId)).map((a) => a.action)).toContain('VULNERABILITY_SCAN_COMPLETED');
  });

  it('NETWORK over https: HSTS checked on a real answer, a proxy trusting everyone is HIGH', async () => {
    // TRUST_PROXY refuses such ranges at start; the scan still reports a configuration that holds them.
    const https = await createTestApp({ APP_URL: 'https://archive.example-firm.com' }, { trustProxy: ['0.0.0.0/1', '128.0.0.0/1'] });
    try {
      const a = await newOrganization(https, 'Https LLP');
      const res: VulnerabilityScanResponse = ok(
        await a.client.post('/_api/security/vulnerability-scan', { targetType: 'NETWORK', targetIdentifier: 'edge' }),
      );
      const checks = res.findings.map((f) => f.check);
      expect(checks).not.toContain('APP_URL_NOT_HTTPS');
      expect(checks).not.toContain('HSTS_MISSING');
      expect(res.findings).toContainEqual(expect.objectContaining({ check: 'TRUST_PROXY_EVERYONE', severity: 'HIGH' }));
    } finally {
      await https.shutdown();
    }
  });

  it('APPLICATION: headers of a real answer, cookie flags, session settings and the shipped advisories', async () => {
    const res = await scan('APPLICATION');
    const checks = res.findings.map((f) => f.check);
    // Strongroom sends its security headers: none of them is reported missing.
    for (const missing of ['CSP_MISSING', 'NOSNIFF_MISSING', 'REFERRER_POLICY_MISSING', 'FRAMING_ALLOWED', 'CSP_UNSAFE_SCRIPT'])
      expect(checks).not.toContain(missing);
    // Over http the session cookie cannot be Secure.
    expect(res.findings).toContainEqual(expect.objectContaining({ check: 'COOKIE_NOT_SECURE', severity: 'MEDIUM' }));
    expect(checks).toContain('DEPENDENCIES_CHECKED');
    // The installed packages have none of the shipped advisories.
    expect(checks).not.toContain('DEPENDENCY_ADVISORY');
  });

  it('APPLICATION: a long idle session is found', async () => {
    const lax = await createTestApp({ SESSION_IDLE_MINUTES: '240' });
    try {
      const a = await newOrganization(lax, 'Lax LLP');
      const res: VulnerabilityScanResponse = ok(
        await a.client.post('/_api/security/vulnerability-scan', { targetType: 'APPLICATION', targetIdentifier: 'web' }),
      );
      expect(res.findings).toContainEqual(expect.objectContaining({ check: 'SESSION_IDLE_LONG', severity: 'MEDIUM' }));
    } finally {
      await lax.shutdown();
    }
  });

  it('APPLICATION: an installed package inside an advisory range is reported with the fixed version', async () => {
    const auth = {
      user: { id: admin.userId, organizationId: admin.organizationId, role: 'admin', fullName: 'A', email: admin.email },
    } as never;
    const installed = JSON.parse(
      await (await import('node:fs/promises')).readFile(new URL('../../../../node_modules/fastify/package.json', import.meta.url), 'utf8'),
    ).version as string;
    const res = await runVulnerabilityScan(
      t.ctx,
      auth,
      { targetType: 'APPLICATION', targetIdentifier: 'advisory test' },
      { ip: '127.0.0.1', userAgent: null },
      async () => (await t.app.inject({ method: 'GET', url: '/healthz' })).headers,
      {
        advisories: [
          {
            id: 'TEST-1',
            package: 'fastify',
            ranges: [{ introduced: '0.0.1', fixed: '999.0.0' }],
            severity: 'HIGH',
            summary: 'A test advisory covering the installed version.',
          },
          {
            id: 'TEST-2',
            package: 'fastify',
            ranges: [{ introduced: '0.0.1', fixed: '1.0.0' }],
            severity: 'CRITICAL',
            summary: 'Fixed long ago.',
          },
        ],
      },
    );
    const advisories = res.findings.filter((f) => f.check === 'DEPENDENCY_ADVISORY');
    expect(advisories).toEqual([
      expect.objectContaining({
        severity: 'HIGH',
        title: `fastify ${installed}: TEST-1`,
        recommendation: 'Upgrade fastify to 999.0.0 or later.',
      }),
    ]);
  });

  it('compares versions and ranges', () => {
    expect(compareVersions('5.3.1', '5.3.2')).toBe(-1);
    expect(compareVersions('5.10.0', '5.9.9')).toBe(1);
    expect(compareVersions('5.3.2-rc.1', '5.3.2')).toBe(0);
    const a = { id: 'x', package: 'p', severity: 'LOW' as const, summary: '', ranges: [{ introduced: '5.0.0', fixed: '5.3.2' }] };
    expect([isAffected('4.9.9', a), isAffected('5.0.0', a), isAffected('5.3.1', a), isAffected('5.3.2', a)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('DATABASE: extensions, tables without row-level security, and the embedded database named as such', async () => {
    const res = await scan('DATABASE');
    const checks = res.findings.map((f) => f.check);
    expect(checks).toContain('EXTENSIONS');
    expect(res.findings).toContainEqual(
      expect.objectContaining({ check: 'RLS_OFF', severity: 'LOW', detail: expect.stringContaining('audit_logs') }),
    );
    if (t.ctx.dbKind === 'pglite') expect(checks).toContain('DATABASE_EMBEDDED');
    // The tests connect to PostgreSQL as the postgres superuser over loopback without TLS: both are found.
    else expect(checks).toEqual(expect.arrayContaining(['SUPERUSER_CONNECTION', 'DATABASE_TLS_OFF']));
  });

  it('INFRASTRUCTURE: the local store write-once and the data directory permissions', async () => {
    const fs = await import('node:fs/promises');
    await fs.chmod(t.dataDir, 0o700);
    let res = await scan('INFRASTRUCTURE');
    expect(res.findings).toContainEqual(expect.objectContaining({ check: 'WRITE_ONCE', severity: 'INFO' }));
    expect(res.findings.map((f) => f.check)).not.toContain('DATA_DIR_WORLD_WRITABLE');
    await fs.chmod(t.dataDir, 0o777);
    try {
      res = await scan('INFRASTRUCTURE');
      expect(res.findings).toContainEqual(expect.objectContaining({ check: 'DATA_DIR_WORLD_WRITABLE', severity: 'CRITICAL' }));
    } finally {
      await fs.chmod(t.dataDir, 0o700);
    }
  });
});

describe('INFRASTRUCTURE on an S3 store (s3rver: no Object Lock)', () => {
  it('reports write-once not enforced as CRITICAL, and the bucket facts it can or cannot read', async () => {
    const s3 = await startS3Server();
    const onS3 = await createTestApp({
      JOB_RUNNER: 'off',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    try {
      const a = await newOrganization(onS3, 'Bucket LLP');
      const res: VulnerabilityScanResponse = ok(
        await a.client.post('/_api/security/vulnerability-scan', { targetType: 'INFRASTRUCTURE', targetIdentifier: s3.bucket }),
      );
      expect(res.findings[0]).toMatchObject({ check: 'WRITE_ONCE_OFF', severity: 'CRITICAL', detail: expect.stringContaining(s3.bucket) });
      const checks = res.findings.map((f) => f.check);
      // Each bucket setting is either judged or named as unreadable; the local directory is not looked at.
      for (const pair of [
        ['VERSIONING_OFF', 'VERSIONING_UNKNOWN'],
        ['PUBLIC_ACCESS_NOT_BLOCKED', 'PUBLIC_ACCESS_UNKNOWN'],
        ['LIFECYCLE_NO_ABORT', 'LIFECYCLE_UNKNOWN'],
      ]) {
        expect(
          checks.some((c) => pair.includes(c)),
          pair.join(' or '),
        ).toBe(true);
      }
      expect(checks).not.toContain('LOCAL_STORE');
      expect(res.summary.bySeverity.CRITICAL).toBeGreaterThanOrEqual(1);
    } finally {
      await onS3.shutdown();
      await s3.close();
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

describe('security assessment', () => {
  it.each([
    [{ scanIds: [] }, T.scanIdsEmpty],
    [{}, T.scanIdsEmpty],
    [{ scanIds: ['not-a-uuid'] }, T.scanIdInvalid],
  ])('refuses %j with its message', async (body, message) => {
    const res = await admin.client.post('/_api/security/security-assessment', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
  });

  it("combines the organization's scans into a risk level, stored and audited; another organization's scan is 404", async () => {
    const network = await scan('NETWORK');
    const app = await scan('APPLICATION');
    const res = ok(await admin.client.post('/_api/security/security-assessment', { scanIds: [network.scanId, app.scanId] }));
    const total = network.summary.totalVulnerabilities + app.summary.totalVulnerabilities;
    expect(res.summary).toMatchObject({ scans: 2, totalVulnerabilities: total });
    expect(res.overallRiskLevel).toBe(riskLevelOf(res.summary.bySeverity));
    expect(res.message).toBe(T.assessmentDone(res.overallRiskLevel));
    const stored = await t.ctx.db
      .selectFrom('securityAssessments')
      .select(['overallRiskLevel', 'organizationId'])
      .where('id', '=', res.assessmentId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ overallRiskLevel: res.overallRiskLevel, organizationId: admin.organizationId });
    expect((await auditActions(t, admin.organizationId)).map((a) => a.action)).toContain('SECURITY_ASSESSMENT_COMPLETED');

    const theirs = await scan('NETWORK', other);
    expect(errorOf(await admin.client.post('/_api/security/security-assessment', { scanIds: [theirs.scanId] }))).toEqual({
      status: 404,
      error: T.scanNotFound,
    });
    expect(errorOf(await admin.client.post('/_api/security/security-assessment', { scanIds: [network.scanId, theirs.scanId] }))).toEqual({
      status: 404,
      error: T.scanNotFound,
    });
    expect(errorOf(await admin.client.post('/_api/security/security-assessment', { scanIds: [randomUUID()] }))).toEqual({
      status: 404,
      error: T.scanNotFound,
    });
  });

  it('weighs severities into a risk level', () => {
    const s = (o: Partial<Record<'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO', number>>) => ({
      CRITICAL: 0,
      HIGH: 0,
      MEDIUM: 0,
      LOW: 0,
      INFO: 0,
      ...o,
    });
    expect(riskLevelOf(s({ INFO: 9 }))).toBe('LOW');
    expect(riskLevelOf(s({ LOW: 3 }))).toBe('LOW');
    expect(riskLevelOf(s({ MEDIUM: 4 }))).toBe('MEDIUM');
    expect(riskLevelOf(s({ MEDIUM: 5 }))).toBe('HIGH');
    expect(riskLevelOf(s({ HIGH: 1 }))).toBe('HIGH');
    expect(riskLevelOf(s({ CRITICAL: 1 }))).toBe('CRITICAL');
  });
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
