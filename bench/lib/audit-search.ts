// The audit list's stored search text in the audit-list bench: the seeded entries are written as entries from
// before migration 0029 (no search_text, no index), then filled by the product's own backfill, timed; and the
// two search statements the list sends are timed by EXPLAIN ANALYZE with the stored text and with the text
// computed from each entry's fields (the path the list takes until the backfill completes).
import type pg from 'pg';
import type { Table } from './types.js';
import { fmt, fmtInt, median } from './stats.js';
import type { AppContext } from '../../server/src/shared/context.js';
import { backfillSearchText } from '../../server/src/features/audit/audit-search.service.js';

const INDEX = 'audit_logs_search_text_trgm';
const COMPUTED = `lower(action || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_email, '') || ' ' || coalesce(target_table, '') || ' ' || coalesce(target_id, '') || ' ' || details::text)`;

/** Before seeding: entries written from now on get no search_text, as entries written before the column. */
export async function seedAsBeforeTheColumn(pool: pg.Pool): Promise<void> {
  await pool.query(`alter table audit_logs disable trigger audit_logs_search_text`);
  await pool.query(`drop index if exists ${INDEX}`);
  await pool.query(`delete from system_settings where key in ('audit_search_text', 'audit_search_backfill')`);
}

export type BackfillFigures = { seconds: number; filled: number; batches: number; vacuumSeconds: number };

/**
 * After seeding: the trigger on again, then the product's backfill (batches of 5,000 ids, then the concurrent
 * index build; timed together), and a VACUUM ANALYZE as autovacuum would run after it (every filled entry left a dead row).
 */
export async function backfill(pool: pg.Pool, ctx: AppContext, log: (m: string) => void): Promise<BackfillFigures> {
  await pool.query(`alter table audit_logs enable trigger audit_logs_search_text`);
  await pool.query('analyze audit_logs');
  const t = performance.now();
  let lastLog = t;
  const quietLog = { ...ctx.log, info: () => {} } as unknown as AppContext['log'];
  let batches = 0;
  let filled = 0;
  // The job's own loop, a thousand batches at a time so the bench can report progress.
  for (;;) {
    const r = await backfillSearchText({ ...ctx, log: quietLog }, { maxBatches: 1000 });
    batches += r.batches;
    filled += r.filled;
    if (r.complete) break;
    if (performance.now() - lastLog > 30_000) {
      log(`backfill: ${fmtInt(filled)} entries filled in ${fmt((performance.now() - t) / 1000)} s`);
      lastLog = performance.now();
    }
  }
  const seconds = (performance.now() - t) / 1000;
  const v0 = performance.now();
  await pool.query('vacuum analyze audit_logs');
  return { seconds, filled, batches, vacuumSeconds: (performance.now() - v0) / 1000 };
}

type Case = { label: string; search: string; start?: string; end?: string };

async function explainMs(pool: pg.Pool, text: string, values: unknown[]): Promise<{ ms: number; scan: string }> {
  const r = await pool.query(`explain (analyze, format json) ${text}`, values);
  const plan = (r.rows[0] as { 'QUERY PLAN': Array<{ 'Execution Time': number; Plan: unknown }> })['QUERY PLAN'][0]!;
  const scans: string[] = [];
  const walk = (n: { 'Node Type': string; 'Index Name'?: string; Plans?: unknown[] }) => {
    if (/Scan/.test(n['Node Type'])) scans.push(n['Index Name'] ? `${n['Node Type']} ${n['Index Name']}` : n['Node Type']);
    for (const c of n.Plans ?? []) walk(c as typeof n);
  };
  walk(plan.Plan as Parameters<typeof walk>[0]);
  return { ms: plan['Execution Time'], scan: scans.join(' + ') };
}

/** The page and the count statements of the list's search (as audit.repository.ts builds them), both ways. */
export async function compareSearchStatements(pool: pg.Pool, org: string, cases: Case[], rounds = 7): Promise<Table> {
  const rows: Table['rows'] = [];
  for (const c of cases) {
    for (const [name, text] of [
      ['stored search_text', 'search_text'],
      ['computed from the fields', COMPUTED],
    ] as const) {
      const values: unknown[] = [org, `%${c.search}%`];
      let where = `organization_id = $1 and ${text} like lower($2)`;
      if (c.start) where += ` and created_at >= $${values.push(c.start)}`;
      if (c.end) where += ` and created_at <= $${values.push(c.end)}`;
      const page = `select * from audit_logs where ${where} order by created_at desc, id desc limit 50 offset 0`;
      const count = `select count(*) from (select 1 as one from audit_logs where ${where} limit 10001) as matching`;
      const pages: number[] = [];
      const counts: number[] = [];
      let scan = '';
      for (let i = 0; i < rounds; i++) {
        pages.push((await explainMs(pool, page, values)).ms);
        const r = await explainMs(pool, count, values);
        counts.push(r.ms);
        scan = r.scan;
      }
      rows.push([c.label, name, fmt(median(pages), 1), fmt(median(counts), 1), scan]);
    }
  }
  return {
    caption: `The list's search statements by EXPLAIN ANALYZE, median of ${rounds} (ms), the stored text against the text computed from the fields`,
    columns: ['case', 'search text', 'page', 'count', 'count reads'],
    rows,
  };
}
