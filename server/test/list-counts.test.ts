/**
 * The matters list and the audit log count matching rows exactly up to LIMITS.listCountBound. Past it the answer
 * says so (totalCountCapped) and totalCount is the bound: never a number the server did not count.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@strongroom/contracts';
import { createTestApp, type TestApp } from './helpers.js';
import { newOrganization, ok, type Member } from './factories.js';

const BOUND = LIMITS.listCountBound;

let t: TestApp;
let firm: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  firm = await newOrganization(t, 'Large Firm LLP');
  other = await newOrganization(t, 'Small Firm LLP');
  // BOUND matters named "Bulk lease N" and one "Harbour sale": BOUND + 1 in all, one more than the bound.
  await sql`insert into matters (organization_id, matter_name, matter_number, client_name, created_by, updated_by, created_at, updated_at)
    select ${firm.organizationId}::uuid, case when g <= ${BOUND} then 'Bulk lease ' || g else 'Harbour sale' end, 'MAT-2026-' || lpad(g::text, 6, '0'),
           'Client ' || (g % 7), ${firm.userId}, ${firm.userId}, timestamptz '2026-01-01' + g * interval '1 minute', timestamptz '2026-01-01'
      from generate_series(1, ${BOUND + 1}) g`.execute(t.ctx.db);
  // BOUND + 1 upload entries (outside the chain: the list never reads the hashes).
  await sql`insert into audit_logs (organization_id, chain_key, seq, action, details, created_at, prev_hash, hash)
    select ${firm.organizationId}::uuid, 'bulk-' || ${firm.organizationId}, g, case when g <= ${BOUND} then 'UPLOAD_FILE' else 'DELETE_FILE' end,
           jsonb_build_object('fileName', case when g <= ${BOUND} then 'bulk ' || g else 'harbour plan.pdf' end),
           timestamptz '2026-01-01' + g * interval '1 second', '', ''
      from generate_series(1, ${BOUND + 1}) g`.execute(t.ctx.db);
}, 120_000);
afterAll(() => t.shutdown());

type MatterList = { matters: Array<{ matterName: string }>; totalCount: number; totalCountCapped: boolean };
const matters = async (query: string, m = firm) => ok(await m.client.get(`/_api/matters/list?${query}`)) as MatterList;

type AuditList = {
  logs: Array<{ action: string }>;
  totalCount: number;
  pagination: { totalCount: number; totalPages: number; totalCountCapped: boolean };
};
const audit = async (query: string) => ok(await firm.client.get(`/_api/audit-logs/list?${query}`)) as AuditList;

describe('GET /_api/matters/list totalCount', () => {
  it('answers the bound and totalCountCapped when more matters match than it counts', async () => {
    const r = await matters('pageSize=25');
    expect(r).toMatchObject({ totalCount: BOUND, totalCountCapped: true });
    expect(r.matters).toHaveLength(25);
    const broad = await matters('search=MAT-2026');
    expect(broad).toMatchObject({ totalCount: BOUND, totalCountCapped: true });
  });

  it('counts exactly up to the bound, the bound itself included', async () => {
    expect(await matters('search=bulk%20lease')).toMatchObject({ totalCount: BOUND, totalCountCapped: false });
    const one = await matters('search=HARBOUR');
    expect(one).toMatchObject({ totalCount: 1, totalCountCapped: false });
    expect(one.matters.map((m) => m.matterName)).toEqual(['Harbour sale']);
    expect(await matters('search=lease%20100')).toMatchObject({ totalCount: 12, totalCountCapped: false });
  });

  it('still pages past the bound', async () => {
    const page = await matters(`pageSize=100&page=${BOUND / 100 + 1}&sortBy=created_at&sortDirection=asc`);
    expect(page.totalCountCapped).toBe(true);
    expect(page.matters.map((m) => m.matterName)).toEqual(['Harbour sale']);
  });

  it("never counts another organization's matters", async () => {
    expect(await matters('', other)).toEqual({ matters: [], totalCount: 0, totalCountCapped: false });
    expect(await matters('search=bulk', other)).toMatchObject({ totalCount: 0, totalCountCapped: false });
  });
});

describe('GET /_api/audit-logs/list totalCount', () => {
  it('answers the bound and totalCountCapped when more entries match than it counts', async () => {
    const r = await audit('limit=50&startDate=2025-12-31T00:00:00.000Z');
    expect(r.pagination).toMatchObject({ totalCount: BOUND, totalPages: BOUND / 50, totalCountCapped: true });
    expect(r.totalCount).toBe(BOUND);
    expect(r.logs).toHaveLength(50);
  });

  it('counts exactly up to the bound, the bound itself included', async () => {
    expect((await audit('actions[]=UPLOAD_FILE')).pagination).toMatchObject({ totalCount: BOUND, totalCountCapped: false });
    const one = await audit('search=harbour%20plan');
    expect(one.pagination).toMatchObject({ totalCount: 1, totalPages: 1, totalCountCapped: false });
    expect(one.logs.map((l) => l.action)).toEqual(['DELETE_FILE']);
  });
});
