/**
 * An archival run killed with SIGKILL in a real server process in the middle of its job: one batch archived and
 * the next one's object written, its transaction not yet committed. The server is started again on the same
 * DATA_DIR (local store; the embedded PGlite, or under the PostgreSQL project a fresh copy of the template
 * database) and the job resumes by itself: the run completes, the object left behind is reused, every old entry
 * is archived exactly once, none is lost, and the chain still holds. The server is held at that point by the
 * failpoint archival.after-object-write (from its second hit), whose log line is the signal to kill.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ArchiveAuditLogsResponse, IntegrityCheckResponse, LatestArchivalRunResponse } from '@strongroom/contracts';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { auditFor } from '../../shared/audit.js';
import { newOrganizationWithTotp, systemMfaToken } from '../../../test/factories.js';
import type { TestApp } from '../../../test/helpers.js';
import { cleanUp, cookieHeader, post, request, serverSetup, startServer, storedKeys } from '../../../test/process-helpers.js';

afterAll(cleanUp);

const DAY = 86_400_000;

describe('an archival run killed in the middle of its job', () => {
  it('resumes after the restart, loses no entry, archives none twice, and the chain still holds', async () => {
    const { dataDir, port, base, sink, env } = await serverSetup();

    // Preparation in this process on the same data directory: a firm with 10 entries written 200 days ago, one of
    // today, then 10 more written 200 days ago. A batch is an unbroken run of sequence numbers, so the 20 old
    // entries make two batches.
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
    const built = await buildApp({ config, logger: false });
    await built.app.listen({ host: '127.0.0.1', port });
    const t = { ...built, sink, config, dataDir, shutdown: async () => undefined } as unknown as TestApp;
    const admin = await newOrganizationWithTotp(t, 'Crash Archive LLP');
    const audit = auditFor({ organizationId: admin.organizationId, actor: { id: admin.userId, name: 'Old Actor', email: admin.email } });
    const writeOld = async (from: number) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(new Date(Date.now() - 200 * DAY));
        await built.ctx.db.transaction().execute(async (trx) => {
          for (let i = from; i < from + 10; i++)
            await audit(trx, 'CREATE_MATTER', { table: 'matters', id: `old-${i}` }, { matterName: `Old matter ${i}` });
        });
      } finally {
        vi.useRealTimers();
      }
    };
    await writeOld(0);
    await built.ctx.db.transaction().execute((trx) => audit(trx, 'CREATE_MATTER', { table: 'matters', id: 'new' }, { matterName: 'New' }));
    await writeOld(10);
    const mfaToken = await systemMfaToken(admin, 'MFA_SYSTEM_OPERATIONS', 1);
    const cookie = cookieHeader(admin.client);
    const before = await built.ctx.db
      .selectFrom('auditLogs')
      .select(['id', 'seq', 'hash', 'details'])
      .where('chainKey', '=', admin.organizationId)
      .orderBy('seq')
      .execute();
    await built.close();

    const latest = async () => {
      const r = await request<LatestArchivalRunResponse>(base, cookie, 'GET', `/_api/system/archival-runs/latest?mfaToken=${mfaToken}`);
      expect(r.status).toBe(200);
      return r.json.run;
    };
    const auditKeys = () => storedKeys(dataDir).filter((k) => k.startsWith(`vault/${admin.organizationId}/audit/`));
    const jobEnv = { ...env, JOB_RUNNER: 'embedded' };
    try {
      const first = startServer({ ...jobEnv, FAILPOINTS: 'archival.after-object-write=pause(600000,after=2)' });
      await first.waitFor('Strongroom is ready');
      const queued = await post<ArchiveAuditLogsResponse>(base, cookie, '/_api/system/archive-audit-logs', { dryRun: false, mfaToken });
      // The request answers at once with the queued run; its job runs in the background.
      expect(queued.status).toBe(200);
      expect(queued.json).toMatchObject({ archivedCount: 0, dryRun: false, state: 'queued', entriesTotal: 20 });
      await first.waitFor('failpoint archival.after-object-write reached');
      // The second batch's object is written while the first batch is recorded.
      await vi.waitFor(
        async () => expect(await latest()).toMatchObject({ runId: queued.json.runId, state: 'running', entriesDone: 10, batches: 1 }),
        {
          timeout: 30_000,
          interval: 200,
        },
      );
      first.child.kill('SIGKILL');
      await first.exited;
      const written = auditKeys();
      expect(written).toHaveLength(2);

      const second = startServer(jobEnv);
      await second.waitFor('Strongroom is ready');
      // While the run waits for its retry, a new request answers it rather than starting another.
      const meanwhile = await post<ArchiveAuditLogsResponse>(base, cookie, '/_api/system/archive-audit-logs', { dryRun: false, mfaToken });
      expect(meanwhile.json).toMatchObject({ runId: queued.json.runId, entriesTotal: 20 });
      await vi.waitFor(
        async () => expect(await latest()).toMatchObject({ runId: queued.json.runId, state: 'completed', entriesDone: 20, batches: 2 }),
        { timeout: 90_000, interval: 500 },
      );
      const check = await post<IntegrityCheckResponse>(base, cookie, '/_api/security/integrity-check', {});
      expect(check.status).toBe(200);
      expect(check.json).toMatchObject({ isValid: true, invalidEntries: [] });
      // The object left by the killed attempt is the one recorded: no second copy.
      expect(auditKeys()).toEqual(written);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      await sink.close();
    }

    // Every entry is still there with its chain fields; the old ones are archived once, in one of the two batches.
    const reopened = await buildApp({ config, logger: false });
    try {
      const after = await reopened.ctx.db
        .selectFrom('auditLogs')
        .selectAll()
        .where('chainKey', '=', admin.organizationId)
        .orderBy('seq')
        .execute();
      for (const b of before) {
        const a = after.find((r) => r.id === b.id);
        expect(a, `entry ${b.seq}`).toBeDefined();
        expect(a!.hash).toBe(b.hash);
      }
      const archived = after.filter((r) => r.archived);
      expect(archived).toHaveLength(20);
      const batches = await reopened.ctx.db
        .selectFrom('auditArchiveBatches')
        .selectAll()
        .where('organizationId', '=', admin.organizationId)
        .orderBy('firstSeq')
        .execute();
      expect(batches.map((b) => b.entryCount)).toEqual([10, 10]);
      expect(batches.map((b) => b.objectKey).sort()).toEqual([...auditKeys()].sort());
      for (const b of batches) expect(archived.filter((r) => r.archiveBatchId === b.id)).toHaveLength(10);
      expect(after.filter((r) => r.action === 'AUDIT_LOG_ARCHIVED')).toHaveLength(2);
      expect(after.filter((r) => r.action === 'AUDIT_ARCHIVAL_STARTED')).toHaveLength(1);
      expect(after.filter((r) => r.action === 'AUDIT_ARCHIVAL_COMPLETED')).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  }, 180_000);
});
