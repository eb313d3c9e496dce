/**
 * An archival killed with SIGKILL in a real server process, between a batch's object write and its transaction,
 * then the server started again on the same DATA_DIR (local store; the embedded PGlite, or under the PostgreSQL
 * project a fresh copy of the template database). The next archival reuses the object left behind: every old
 * entry is archived exactly once, none is lost, and the chain still holds. The server is held at that point by
 * the failpoint archival.after-object-write, whose log line is the signal to kill.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ArchiveAuditLogsResponse, IntegrityCheckResponse } from '@strongroom/contracts';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { auditFor } from '../../shared/audit.js';
import { newOrganizationWithTotp, systemMfaToken } from '../../../test/factories.js';
import type { TestApp } from '../../../test/helpers.js';
import { cleanUp, cookieHeader, post, serverSetup, startServer, storedKeys } from '../../../test/process-helpers.js';

afterAll(cleanUp);

const DAY = 86_400_000;

describe('an archival killed between the object write and its transaction', () => {
  it('loses no entry, archives none twice, and the chain still holds after the restart', async () => {
    const { dataDir, port, base, sink, env } = await serverSetup();

    // Preparation in this process on the same data directory: a firm with 20 entries written 200 days ago.
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
    const built = await buildApp({ config, logger: false });
    await built.app.listen({ host: '127.0.0.1', port });
    const t = { ...built, sink, config, dataDir, shutdown: async () => undefined } as unknown as TestApp;
    const admin = await newOrganizationWithTotp(t, 'Crash Archive LLP');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(Date.now() - 200 * DAY));
      const audit = auditFor({ organizationId: admin.organizationId, actor: { id: admin.userId, name: 'Old Actor', email: admin.email } });
      await built.ctx.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 20; i++)
          await audit(trx, 'CREATE_MATTER', { table: 'matters', id: `old-${i}` }, { matterName: `Old matter ${i}` });
      });
    } finally {
      vi.useRealTimers();
    }
    const mfaToken = await systemMfaToken(admin, 'MFA_SYSTEM_OPERATIONS', 1);
    const cookie = cookieHeader(admin.client);
    const before = await built.ctx.db
      .selectFrom('auditLogs')
      .select(['id', 'seq', 'hash', 'details'])
      .where('chainKey', '=', admin.organizationId)
      .orderBy('seq')
      .execute();
    await built.close();

    try {
      const first = startServer({ ...env, FAILPOINTS: 'archival.after-object-write=pause(600000)' });
      await first.waitFor('Strongroom is ready');
      const inFlight = post(base, cookie, '/_api/system/archive-audit-logs', { dryRun: false, mfaToken }).catch((err: unknown) => err);
      await first.waitFor('failpoint archival.after-object-write reached');
      first.child.kill('SIGKILL');
      await first.exited;
      expect(await inFlight).toBeInstanceOf(Error);
      const orphan = storedKeys(dataDir).filter((k) => k.startsWith(`vault/${admin.organizationId}/audit/`));
      expect(orphan).toHaveLength(1);

      const second = startServer(env);
      await second.waitFor('Strongroom is ready');
      const run = await post<ArchiveAuditLogsResponse>(base, cookie, '/_api/system/archive-audit-logs', { dryRun: false, mfaToken });
      expect(run).toEqual({ status: 200, json: { archivedCount: 20, dryRun: false, batches: 1 } });
      const again = await post<ArchiveAuditLogsResponse>(base, cookie, '/_api/system/archive-audit-logs', { dryRun: false, mfaToken });
      expect(again.json.archivedCount).toBe(0);
      const check = await post<IntegrityCheckResponse>(base, cookie, '/_api/security/integrity-check', {});
      expect(check.status).toBe(200);
      expect(check.json).toMatchObject({ isValid: true, invalidEntries: [] });
      // The object left by the killed run is the one recorded: no second copy.
      expect(storedKeys(dataDir).filter((k) => k.startsWith(`vault/${admin.organizationId}/audit/`))).toEqual(orphan);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      await sink.close();
    }

    // Every entry is still there with its chain fields; the old ones are archived once, in the one batch.
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
        .execute();
      expect(batches).toHaveLength(1);
      expect(batches[0]).toMatchObject({ entryCount: 20, objectKey: storedKeys(dataDir).find((k) => k.includes('/audit/')) });
      expect(new Set(archived.map((r) => r.archiveBatchId))).toEqual(new Set([batches[0]!.id]));
      expect(after.filter((r) => r.action === 'AUDIT_LOG_ARCHIVED')).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
