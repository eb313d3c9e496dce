/**
 * audit_logs.search_text: filled for every new entry, filled for older entries by the backfill job (in batches,
 * resumable, twice harmlessly), changing no entry's hash; and the list's search finds the same entries, with the
 * same totals, whether it reads the stored text or computes it from each entry's fields.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogEntry } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, newOrganization, ok, type Member } from '../../../test/factories.js';
import { AUDIT_SEARCH_BACKFILL_JOB, startAuditSearchBackfill } from './audit.jobs.js';
import { backfillProgress } from './audit-search.repository.js';
import { backfillSearchText } from './audit-search.service.js';
import { countAuditEntries, listAuditEntries, type AuditFilters } from './audit.repository.js';
import { verifyOrganizationChain } from './index.js';

let t: TestApp;
let admin: Member;
let user: Member;
let other: Member;

/** Details holding the LIKE pattern characters, mixed case, and words only details have. */
const DETAILS: Array<Record<string, unknown>> = [
  { matterName: 'Commercial LEASE renewal', note: 'Rent 10% off' },
  { matterName: 'Share purchase', note: 'clause a_b applies' },
  { matterName: 'Loan', note: 'path C:\\deeds\\lease' },
  { matterName: 'Supply agreement', note: '100 percent, a-b' },
  { fileName: 'Smithfield.pdf', size: 12 },
  { matterName: 'Lease of Smithfield Yard', note: '50%_done' },
];
const SEARCHES = [
  'lease',
  'LEASE',
  'Lease of',
  '10%',
  '%',
  '_',
  'a_b',
  '\\',
  'deeds\\lease',
  '%_',
  'smithfield',
  'update_matter',
  'uma',
  'nothing at all',
];

async function writeEntries(m: Member, by: Member | null) {
  const audit = auditFor({
    organizationId: m.organizationId,
    actor: by ? { id: by.userId, name: by === user ? 'Uma User' : 'Ada Admin', email: by.email } : null,
  });
  await t.ctx.db.transaction().execute(async (trx) => {
    for (const [i, details] of DETAILS.entries())
      await audit(trx, i % 2 ? 'UPDATE_MATTER' : 'UPLOAD_FILE', { table: i % 3 ? 'matters' : 'nodes', id: 100 + i }, details);
  });
}

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  user = await addMember(t, admin.organizationId, 'user', {}, 'Uma User');
  other = await newOrganization(t, 'Other & Partners');
  await writeEntries(admin, admin);
  await writeEntries(admin, user);
  await writeEntries(admin, null);
  await writeEntries(other, other);
});
afterAll(() => t.shutdown());

const computed = sql`lower(action || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_email, '') || ' ' || coalesce(target_table, '') || ' ' || coalesce(target_id, '') || ' ' || details::text)`;

async function mismatches(organizationId: string): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from audit_logs
     where organization_id = ${organizationId} and search_text is distinct from ${computed}`.execute(t.ctx.db);
  return r.rows[0]!.n;
}

/** What each search answers over HTTP: the entries' ids in order and the totals. */
async function answers(m: Member) {
  const out: Record<string, { ids: string[]; total: number }> = {};
  for (const s of SEARCHES) {
    const body = ok(await m.client.get(`/_api/audit-logs/list?${new URLSearchParams({ search: s, limit: '100' }).toString()}`)) as {
      logs: AuditLogEntry[];
      totalCount: number;
    };
    out[s] = { ids: body.logs.map((l) => l.id), total: body.totalCount };
  }
  return out;
}

describe('the stored search text', () => {
  it('is filled for every new entry with the text the search computes, and follows a change of its fields', async () => {
    expect(await mismatches(admin.organizationId)).toBe(0);
    const r = await sql<{ n: number }>`select count(*)::int as n from audit_logs
       where organization_id = ${admin.organizationId} and search_text is null`.execute(t.ctx.db);
    expect(r.rows[0]!.n).toBe(0);
    // Archival empties an entry's details: the text searched loses them with it.
    await sql`update audit_logs set details = '{}' where organization_id = ${other.organizationId} and target_id = '100'`.execute(t.ctx.db);
    expect(await mismatches(other.organizationId)).toBe(0);
  });

  it('finds the same entries with the same totals as the text computed from the fields', async () => {
    let found = 0;
    for (const s of SEARCHES) {
      for (const visibleTo of [undefined, { userId: user.userId, sharedActions: ['UPLOAD_FILE'] }]) {
        const f: AuditFilters = { organizationId: admin.organizationId, search: s, visibleTo };
        const order = { sortBy: 'created_at' as const, direction: 'desc' as const };
        const stored = await listAuditEntries(t.ctx.db, { ...f, storedSearchText: true }, order, { limit: 100, offset: 0 });
        const fields = await listAuditEntries(t.ctx.db, { ...f, storedSearchText: false }, order, { limit: 100, offset: 0 });
        expect(
          stored.map((e) => e.id),
          s,
        ).toEqual(fields.map((e) => e.id));
        expect(await countAuditEntries(t.ctx.db, { ...f, storedSearchText: true }, 10_000), s).toBe(
          await countAuditEntries(t.ctx.db, { ...f, storedSearchText: false }, 10_000),
        );
        found += stored.length;
      }
    }
    expect(found).toBeGreaterThan(20);
  });
});

describe('the backfill of entries written before the column', () => {
  it('fills them in batches, resumes, runs twice harmlessly and changes no hash, answers or totals', async () => {
    // An audit log as the migration finds it on a live installation: entries without search_text, no index.
    await sql`update audit_logs set search_text = null where organization_id in (${admin.organizationId}, ${other.organizationId})`.execute(
      t.ctx.db,
    );
    await sql`drop index audit_logs_search_text_trgm`.execute(t.ctx.db);
    await sql`delete from system_settings where key in ('audit_search_text', 'audit_search_backfill')`.execute(t.ctx.db);
    const hashes = async () =>
      (
        await sql<{ id: string; hash: string }>`select id, hash from audit_logs where organization_id is not null order by id`.execute(
          t.ctx.db,
        )
      ).rows;
    const hashesBefore = await hashes();
    const asAdminBefore = await answers(admin);
    const asUserBefore = await answers(user);
    expect(asAdminBefore['lease']!.total).toBeGreaterThan(0);

    // One batch, then the process stops.
    const first = await backfillSearchText(t.ctx, { batchSize: 4, maxBatches: 1 });
    expect(first).toMatchObject({ complete: false, batches: 1 });
    const progress = await backfillProgress(t.ctx.db);
    expect(Number(progress!.filled)).toBeGreaterThan(0);
    expect(await answers(admin)).toEqual(asAdminBefore);

    // Started again, the job goes on from there and completes.
    expect(await startAuditSearchBackfill(t.ctx)).toBe(true);
    expect(await startAuditSearchBackfill(t.ctx)).toBe(false);
    expect(await t.ctx.jobs.runDueJobs([AUDIT_SEARCH_BACKFILL_JOB])).toEqual({ completed: 1, failed: 0 });
    expect(await mismatches(admin.organizationId)).toBe(0);
    expect(await mismatches(other.organizationId)).toBe(0);
    const index = await sql<{
      valid: boolean;
    }>`select indisvalid as valid from pg_index where indexrelid = to_regclass('audit_logs_search_text_trgm')`.execute(t.ctx.db);
    expect(index.rows).toEqual([{ valid: true }]);

    expect(await hashes()).toEqual(hashesBefore);
    const check = await verifyOrganizationChain(t.ctx, admin.organizationId);
    expect(check).toMatchObject({ isValid: true, invalidEntries: [] });
    expect(await answers(admin)).toEqual(asAdminBefore);
    expect(await answers(user)).toEqual(asUserBefore);

    // Run again, it has nothing to do; and nothing is queued at the next start.
    expect(await backfillSearchText(t.ctx)).toEqual({ complete: true, batches: 0, filled: 0 });
    expect(await startAuditSearchBackfill(t.ctx)).toBe(false);
  });
});
