import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ComplianceReport } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { TestApp } from '../../../test/helpers.js';
import { addMember, auditActions, createMatter, ok, uploadFile, type Member } from '../../../test/factories.js';
import * as fx from './security-tooling-fixtures.js';

/**
 * The compliance check of an organization, through its call: against facts arranged in the database and the
 * object store, and the active policies' thresholds.
 */
const DAY = 86_400_000;
let t: TestApp;
let admin: Member;

beforeAll(async () => {
  ({ t, admin } = await fx.startToolingApp());
});
afterAll(async () => {
  await t?.shutdown();
});

const newFirm = (name: string) => fx.newFirm(t, name);
const { policy, manage, check } = fx;
const compliance = (m: Member = admin): Promise<ComplianceReport> => fx.compliance(m);

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
