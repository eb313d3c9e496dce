// Audit archival as a background job: BENCH_ARCHIVAL_ROWS entries older than 180 days (default 100,000; at most
// 2,000,000) archived by the archival run's job, against a plain read-compress-write loop over the same rows in
// the same process (the same batches read in sequence order, the same gzip JSON lines, the same write-once
// store, without marking anything). PGlite in memory, or PostgreSQL with BENCH_DATABASE_URL.
import { gzipSync } from 'node:zlib';
import { envInt, fmt, fmtInt } from '../lib/stats.js';
import { startStrongroom, type Strongroom } from '../lib/strongroom.js';
import type { Scenario } from '../lib/types.js';
import { runArchivalJob } from '../../server/src/features/archival/archival-runs.service.js';
import { ARCHIVE_BATCH_SIZE, archivalCutoff } from '../../server/src/features/archival/archival.service.js';
import { insertRunUnlessActive, nextArchivable } from '../../server/src/features/archival/archival.repository.js';

const DAY_MS = 86_400_000;

/** Entries `from`..`to` (seq base+i), written between 400 and 200 days ago, with placeholder chain hashes. */
function seedRows(org: string, base: number, count: number, from: number, to: number) {
  const rows = [];
  const start = Date.now() - 400 * DAY_MS;
  for (let i = from; i <= to; i++)
    rows.push({
      organizationId: org,
      chainKey: org,
      seq: String(base + i),
      actorId: null,
      actorName: 'Bench Actor',
      actorEmail: 'bench.actor@firm.test',
      action: 'UPLOAD_FILE',
      targetTable: 'nodes',
      targetId: `node-${i}`,
      details: JSON.stringify({ fileName: `Agreement ${i}.pdf`, size: i % 100_000, matterName: `Matter ${i % 500}` }),
      ipAddress: `10.${i % 250}.${Math.floor(i / 250) % 250}.7`,
      createdAt: new Date(start + (i * 200 * DAY_MS) / count),
      prevHash: 'x',
      hash: 'x',
    });
  return rows;
}

export const scenario: Scenario = {
  name: 'audit-archival',
  title: 'Audit archival job against a plain read-compress-write loop',
  order: 65,
  description:
    'BENCH_ARCHIVAL_ROWS audit entries older than 180 days (default 100,000) archived by the background archival job (batches of 5,000: ' +
    'object written and read back, then one transaction marking the batch, its audit entry and the run progress), against a plain loop ' +
    'reading the same batches, compressing them the same way and writing them to the same store, in the same process.',
  async run({ log }) {
    const count = envInt('BENCH_ARCHIVAL_ROWS', 100_000, 10_000, 2_000_000);
    let sr: Strongroom | undefined;
    try {
      sr = await startStrongroom();
      const ctx = sr.built.ctx;
      const org = sr.admin.organizationId;
      const head = await ctx.db.selectFrom('auditChainHeads').select('lastSeq').where('chainKey', '=', org).executeTakeFirstOrThrow();
      const base = Number(head.lastSeq);
      const seedStart = performance.now();
      await ctx.db.transaction().execute(async (trx) => {
        // 2,000 rows a statement: PostgreSQL takes at most 65,535 parameters.
        for (let from = 1; from <= count; from += 2000)
          await trx
            .insertInto('auditLogs')
            .values(seedRows(org, base, count, from, Math.min(count, from + 1999)))
            .execute();
        await trx
          .updateTable('auditChainHeads')
          .set({ lastSeq: String(base + count), lastHash: 'x' })
          .where('chainKey', '=', org)
          .execute();
      });
      log(`${sr.dbKind}: seeded ${fmtInt(count)} old entries in ${fmt((performance.now() - seedStart) / 1000)} s`);
      const cutoff = archivalCutoff(new Date());

      // The baseline: read, compress, write, batch by batch, nothing marked.
      const b0 = performance.now();
      let afterSeq = '0';
      let baselineRows = 0;
      let baselineBytes = 0;
      for (;;) {
        const rows = await nextArchivable(ctx.db, org, cutoff, afterSeq, ARCHIVE_BATCH_SIZE);
        if (rows.length === 0) break;
        const body = gzipSync(Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8'), { level: 9 });
        const key = `vault/${org}/bench-baseline/${rows[0]!.seq}-${rows.at(-1)!.seq}.jsonl.gz`;
        await ctx.store.putLocked({
          key,
          body,
          contentType: 'application/gzip',
          lock: { mode: 'COMPLIANCE', retainUntil: new Date(Date.now() + 86_400_000), legalHold: false },
        });
        baselineRows += rows.length;
        baselineBytes += body.length;
        afterSeq = String(rows.at(-1)!.seq);
      }
      const baselineSeconds = (performance.now() - b0) / 1000;
      const baselineRate = baselineRows / baselineSeconds;
      log(`baseline: ${fmtInt(baselineRows)} entries in ${fmt(baselineSeconds, 2)} s (${fmtInt(baselineRate)} entries/s)`);

      // The job: the run recorded as the archive call records it, then its handler as the runner calls it.
      const run = await insertRunUnlessActive(ctx.db, { organizationId: org, requestedBy: sr.admin.userId, cutoff, entriesTotal: count });
      if (!run) throw new Error('an archival run was already under way');
      const j0 = performance.now();
      await runArchivalJob(ctx, { runId: run.id, organizationId: org }, { retryCount: 0 });
      const jobSeconds = (performance.now() - j0) / 1000;
      const done = await ctx.db.selectFrom('auditArchivalRuns').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
      if (done.state !== 'completed' || done.entriesDone !== count)
        throw new Error(`the run ended ${done.state} with ${done.entriesDone} of ${count}`);
      const jobRate = count / jobSeconds;
      const ratio = jobRate / baselineRate;
      log(
        `job: ${fmtInt(count)} entries in ${fmt(jobSeconds, 2)} s (${fmtInt(jobRate)} entries/s), ${done.batches} batches; ratio ${fmt(ratio, 2)}`,
      );

      return {
        variant: sr.dbKind,
        ...(sr.dbKind === 'postgres' ? { command: 'BENCH_DATABASE_URL=postgres://... npm run bench -- audit-archival' } : {}),
        summary: [
          `- ${fmtInt(count)} entries: the archival job at **${fmtInt(jobRate)} entries/s**, the plain loop at ${fmtInt(baselineRate)} entries/s: **ratio ${fmt(ratio, 2)}** (target at least 0.5).`,
        ],
        tables: [
          {
            columns: ['', 'entries', 'seconds', 'entries/s', 'batches', 'compressed MiB'],
            rows: [
              [
                'plain read-compress-write loop',
                fmtInt(baselineRows),
                fmt(baselineSeconds, 2),
                fmtInt(baselineRate),
                Math.ceil(baselineRows / ARCHIVE_BATCH_SIZE),
                fmt(baselineBytes / 1048576, 2),
              ],
              [
                'archival job',
                fmtInt(done.entriesDone),
                fmt(jobSeconds, 2),
                fmtInt(jobRate),
                done.batches,
                fmt(Number(done.bytes) / 1048576, 2),
              ],
            ],
          },
        ],
        notes: [
          "The baseline runs first over the same rows, so both read warm pages; the job then also reads each object back to check it, marks the batch's entries archived (their details cleared), appends one audit entry and counts the run's progress in each batch's transaction.",
          "Where the job's extra time goes: marking a batch rewrites its 5,000 rows (their details cleared), and every one of audit_logs' indexes takes the new row versions, the trigram index of the list's search over the details among them; the plain loop writes nothing to the database.",
          'Set BENCH_ARCHIVAL_ROWS for another size (10,000 to 2,000,000).',
        ],
        headline: `archival job ${fmtInt(jobRate)} entries/s vs plain loop ${fmtInt(baselineRate)} entries/s (ratio ${fmt(ratio, 2)}, ${fmtInt(count)} entries, ${sr.dbKind})`,
      };
    } finally {
      await sr?.close();
    }
  },
};
