/**
 * Archival of old audit entries and retrieval of their details, through the HTTP calls: validation, who may call,
 * another organization's ids, the dry run, a real run (entries made old by writing them through the audit writer
 * with the clock moved back), retrieval through the local store's delay, a batch altered in storage, and a run
 * that stops between the object write and its transaction.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ARCHIVAL_MSG,
  AUDIT_LOG_MSG,
  type ArchivalStatsResponse,
  type CheckRetrievalsResponse,
  type LatestArchivalRunResponse,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, newOrganizationWithTotp, ok, systemMfaToken, type TotpMember } from '../../../test/factories.js';
import type { BlobStore, VaultObjectInfo } from '../../platform/storage/blob-store.js';
import { ARCHIVE_RETRIEVAL_JOB, runRetrieval } from './archival-retrieval.service.js';
import { archivalCutoff } from './archival.service.js';
import { ARCHIVE_RUN_JOB, runArchivalJob } from './archival-runs.service.js';
import { parseFailpoints, type Failpoints } from '../../platform/failpoints.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off', ARCHIVE_RETRIEVAL_DELAY_SECONDS: '0' });
});
afterAll(() => t.shutdown());

const DAY = 86_400_000;
const tokens = new Map<string, string>();
/**
 * A system MFA token of the member's session for the operation, bought once and reused (it lasts 30 minutes).
 * Each purchase spends an authenticator code; the record of the last code used is cleared first, as if the
 * member had waited for the next code.
 */
async function token(m: TotpMember, operation: string): Promise<string> {
  const key = `${m.userId}:${operation}`;
  if (!tokens.has(key)) {
    await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', m.userId).execute();
    tokens.set(key, await systemMfaToken(m, operation, 0));
  }
  return tokens.get(key)!;
}

/**
 * Appends entries to the organization's chain through the audit writer, with the clock at `at`: the entries are
 * as old as a real entry written then (their time is part of their hash).
 */
async function writeOldEntries(m: TotpMember, at: Date, n: number, actorId = m.userId): Promise<void> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(at);
    const audit = auditFor(
      { organizationId: m.organizationId, actor: { id: actorId, name: 'Old Actor', email: m.email } },
      { ip: '10.0.0.9' },
    );
    await t.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < n; i++)
        await audit(
          trx,
          'CREATE_MATTER',
          { table: 'matters', id: `old-${i}` },
          { matterName: `Old matter ${i}`, note: 'ünïcode "quoted", ok' },
        );
    });
  } finally {
    vi.useRealTimers();
  }
}

const rowsOf = (orgId: string) => t.ctx.db.selectFrom('auditLogs').selectAll().where('chainKey', '=', orgId).orderBy('seq').execute();

async function stats(m: TotpMember): Promise<ArchivalStatsResponse> {
  return ok(await m.client.get('/_api/system/archival-stats', { 'x-mfa-token': await token(m, 'VIEW_ARCHIVAL_STATS') }));
}
/** A dry run is of the statistics' class (VIEW_ARCHIVAL_STATS); a real run of the organization class. */
async function archive(m: TotpMember, dryRun: boolean) {
  const operation = dryRun ? 'VIEW_ARCHIVAL_STATS' : 'MFA_SYSTEM_OPERATIONS';
  return m.client.post('/_api/system/archive-audit-logs', { dryRun }, { 'x-mfa-token': await token(m, operation) });
}

/** The organization's latest archival run, read with the token that started it (the organization class). */
async function latest(m: TotpMember): Promise<LatestArchivalRunResponse['run']> {
  const answer = ok(await m.client.get('/_api/system/archival-runs/latest', { 'x-mfa-token': await token(m, 'MFA_SYSTEM_OPERATIONS') }));
  return (answer as LatestArchivalRunResponse).run;
}

/** Runs the archival jobs that are due, as the background runner would. */
const runArchivalJobs = () => t.ctx.jobs.runDueJobs([ARCHIVE_RUN_JOB]);

/** A real archival: the request answers at once with its queued run, then its job runs to the end. */
async function archiveFully(m: TotpMember) {
  const queued = ok(await archive(m, false));
  expect(await runArchivalJobs()).toEqual({ completed: 1, failed: 0 });
  return queued;
}

/** A firm with 12 entries written 200 days ago, 3 written 100 days ago, and the ones of today. */
async function oldFirm(name: string): Promise<TotpMember> {
  const admin = await newOrganizationWithTotp(t, name);
  await writeOldEntries(admin, new Date(Date.now() - 200 * DAY), 12);
  await writeOldEntries(admin, new Date(Date.now() - 100 * DAY), 3);
  return admin;
}

describe('GET /_api/system/archival-stats and POST /_api/system/archive-audit-logs', () => {
  it('are for administrators with a system MFA code; users and guests are refused before any code is asked', async () => {
    const admin = await newOrganizationWithTotp(t, 'Gate LLP');
    for (const role of ['user', 'guest'] as const) {
      const m = await addMember(t, admin.organizationId, role);
      for (const r of [
        await m.client.get('/_api/system/archival-stats'),
        await m.client.post('/_api/system/archive-audit-logs', { dryRun: true }),
      ]) {
        expect(r.statusCode).toBe(403);
        expect(r.json().error).toBe(ARCHIVAL_MSG.adminsOnly);
      }
    }
    const noCode = await admin.client.get('/_api/system/archival-stats');
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { operation: 'VIEW_ARCHIVAL_STATS' } });
    const noCode2 = await admin.client.post('/_api/system/archive-audit-logs', { dryRun: false });
    expect(noCode2.statusCode).toBe(401);
    expect(noCode2.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { operation: 'MFA_SYSTEM_OPERATIONS' } });
    // A dry run only counts, as the statistics do: it asks for the statistics' operation.
    const noCode3 = await admin.client.post('/_api/system/archive-audit-logs', { dryRun: true });
    expect(noCode3.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { operation: 'VIEW_ARCHIVAL_STATS' } });
    // A token bought to look at statistics does not archive.
    const insight = await token(admin, 'VIEW_ARCHIVAL_STATS');
    expect((await admin.client.post('/_api/system/archive-audit-logs', { dryRun: false }, { 'x-mfa-token': insight })).statusCode).toBe(
      401,
    );
    const bad = await admin.client.post('/_api/system/archive-audit-logs', { dryRun: 'yes' }, { 'x-mfa-token': insight });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(ARCHIVAL_MSG.dryRunBoolean);
  });

  it('counts, archives in a dry run nothing, then archives every entry older than 180 days into locked batches', async () => {
    const admin = await oldFirm('Archive LLP');
    const before = await rowsOf(admin.organizationId);
    const old = before.filter((r) => new Date(r.createdAt) < archivalCutoff(new Date()));
    expect(old).toHaveLength(12);

    const s1 = await stats(admin);
    expect(s1).toMatchObject({
      archivableLogsCount: 12,
      lastArchivalDate: null,
      retentionStatus: 'Archival Overdue',
      archivedLogsCount: 0,
    });
    expect(s1.totalAuditLogs).toBe((await rowsOf(admin.organizationId)).length);

    expect(ok(await archive(admin, true))).toMatchObject({
      archivedCount: 12,
      dryRun: true,
      batches: 0,
      range: { oldest: new Date(old[0]!.createdAt).toISOString(), newest: new Date(old.at(-1)!.createdAt).toISOString() },
    });
    expect((await rowsOf(admin.organizationId)).filter((r) => r.archived)).toHaveLength(0);

    // The request answers at once: the run is queued, nothing has moved yet.
    const queued = ok(await archive(admin, false));
    expect(queued).toEqual({ archivedCount: 0, dryRun: false, batches: 0, runId: expect.any(String), state: 'queued', entriesTotal: 12 });
    expect(await latest(admin)).toMatchObject({ runId: queued.runId, state: 'queued', entriesDone: 0, entriesTotal: 12, startedAt: null });
    expect((await rowsOf(admin.organizationId)).filter((r) => r.archived)).toHaveLength(0);
    // The job archives them and reports its progress and its result.
    expect(await runArchivalJobs()).toEqual({ completed: 1, failed: 0 });
    const done = (await latest(admin))!;
    expect(done).toMatchObject({ runId: queued.runId, state: 'completed', entriesDone: 12, entriesTotal: 12, batches: 1, message: null });
    expect(done.bytes).toBeGreaterThan(0);
    expect(Date.parse(done.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(done.startedAt!));
    const after = await rowsOf(admin.organizationId);
    const archived = after.filter((r) => r.archived);
    expect(archived.map((r) => r.id)).toEqual(old.map((r) => r.id));
    for (const r of archived) {
      const was = old.find((o) => o.id === r.id)!;
      // The chain fields stay; the details leave the database.
      expect({ seq: r.seq, hash: r.hash, prevHash: r.prevHash, createdAt: r.createdAt }).toEqual({
        seq: was.seq,
        hash: was.hash,
        prevHash: was.prevHash,
        createdAt: was.createdAt,
      });
      expect(r.details).toEqual({});
      expect(r.archiveBatchId).toBe(archived[0]!.archiveBatchId);
    }
    const batch = await t.ctx.db
      .selectFrom('auditArchiveBatches')
      .selectAll()
      .where('organizationId', '=', admin.organizationId)
      .executeTakeFirstOrThrow();
    expect(batch).toMatchObject({
      entryCount: 12,
      firstSeq: old[0]!.seq,
      lastSeq: old[11]!.seq,
      firstPrevHash: old[0]!.prevHash,
      lastHash: old[11]!.hash,
    });
    expect(batch.objectKey).toMatch(new RegExp(`^vault/${admin.organizationId}/audit/\\d{12}-\\d{12}\\.jsonl\\.gz$`));
    // The object: under a write-once lock of ten years, gzip JSON lines with every field and the details.
    const info = await t.ctx.store.vaultInfo(batch.objectKey);
    expect(info?.lock?.mode).toBe('COMPLIANCE');
    expect(info!.lock!.retainUntil.getTime()).toBeGreaterThan(Date.now() + 9.9 * 365 * DAY);
    expect(await t.ctx.store.sha256(batch.objectKey)).toBe(batch.sha256);
    const chunks: Buffer[] = [];
    for await (const c of await t.ctx.store.getStream(batch.objectKey)) chunks.push(c as Buffer);
    const lines = gunzipSync(Buffer.concat(chunks))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(12);
    expect(lines[0]).toMatchObject({
      id: old[0]!.id,
      seq: old[0]!.seq,
      hash: old[0]!.hash,
      prevHash: old[0]!.prevHash,
      details: old[0]!.details,
      ipAddress: '10.0.0.9',
    });
    // A locked batch cannot be removed.
    await expect(t.ctx.store.delete(batch.objectKey)).rejects.toThrow(/locked/);

    const entry = (await rowsOf(admin.organizationId)).filter((r) => r.action === 'AUDIT_LOG_ARCHIVED');
    expect(entry).toHaveLength(1);
    expect(entry[0]).toMatchObject({
      actorId: null,
      targetTable: 'audit_archive_batches',
      targetId: batch.id,
      details: { entryCount: 12, sha256: batch.sha256 },
    });
    expect(batch.archivedBy).toBe(admin.userId);
    // The run's start is the administrator's, its completion Strongroom's.
    const runEntries = (await rowsOf(admin.organizationId)).filter((r) => r.targetTable === 'audit_archival_runs');
    expect(runEntries.map((r) => ({ action: r.action, actorId: r.actorId, targetId: r.targetId, details: r.details }))).toEqual([
      {
        action: 'AUDIT_ARCHIVAL_STARTED',
        actorId: admin.userId,
        targetId: queued.runId,
        details: expect.objectContaining({ entriesTotal: 12 }),
      },
      {
        action: 'AUDIT_ARCHIVAL_COMPLETED',
        actorId: null,
        targetId: queued.runId,
        details: { entriesDone: 12, entriesTotal: 12, batches: 1, bytes: done.bytes },
      },
    ]);

    const s2 = await stats(admin);
    expect(s2).toMatchObject({ archivableLogsCount: 0, retentionStatus: 'Compliant', archivedLogsCount: 12 });
    expect(Date.parse(s2.lastArchivalDate!)).toBeGreaterThan(Date.now() - 60_000);

    // Idempotent: nothing more to archive, nothing archived twice.
    const again = await archiveFully(admin);
    expect(again).toMatchObject({ archivedCount: 0, state: 'queued', entriesTotal: 0 });
    expect(again.runId).not.toBe(queued.runId);
    expect(await latest(admin)).toMatchObject({ runId: again.runId, state: 'completed', entriesDone: 0, batches: 0 });
    expect(
      await t.ctx.db.selectFrom('auditArchiveBatches').select('id').where('organizationId', '=', admin.organizationId).execute(),
    ).toHaveLength(1);

    // The chain still holds: the integrity check re-hashes archived entries from their batch.
    const check = ok(await admin.client.post('/_api/security/integrity-check'));
    expect(check).toMatchObject({ isValid: true, invalidEntries: [] });
    // The chain head was signed after the archival, at the run's completion entry.
    const signed = await t.ctx.db.selectFrom('auditSignedHeads').selectAll().where('organizationId', '=', admin.organizationId).execute();
    // (The later run archived nothing and signed nothing; the integrity check signs the head it checked.)
    expect(signed.filter((h) => h.reason === 'archival').map((h) => h.seq)).toEqual([runEntries[1]!.seq]);
  });

  it('a run stopped between the object write and its transaction leaves the entries as they were; the next run reuses the object', async () => {
    const admin = await oldFirm('Interrupted LLP');
    const config = t.ctx.config as { failpoints: Failpoints };
    const before = config.failpoints;
    config.failpoints = parseFailpoints('archival.after-object-write=error') as Failpoints;
    let runId: string | undefined;
    try {
      runId = ok(await archive(admin, false)).runId;
      expect(await runArchivalJobs()).toEqual({ completed: 0, failed: 1 });
    } finally {
      config.failpoints = before;
    }
    // The run waits for its job's retry; a second request answers that run rather than starting another.
    expect(await latest(admin)).toMatchObject({ runId, state: 'running', entriesDone: 0 });
    expect(ok(await archive(admin, false))).toMatchObject({ runId, state: 'running', archivedCount: 0 });
    expect((await rowsOf(admin.organizationId)).filter((r) => r.archived)).toHaveLength(0);
    expect(
      await t.ctx.db.selectFrom('auditArchiveBatches').select('id').where('organizationId', '=', admin.organizationId).execute(),
    ).toHaveLength(0);
    const orphans = fs.readdirSync(path.join(t.dataDir, 'objects', 'vault', admin.organizationId, 'audit'));
    expect(orphans).toHaveLength(1);

    // The retry comes after the job's retry delay (a few seconds).
    await vi.waitFor(
      async () => {
        await runArchivalJobs();
        expect(await latest(admin)).toMatchObject({ runId, state: 'completed', entriesDone: 12, batches: 1 });
      },
      { timeout: 60_000, interval: 1000 },
    );
    const batch = await t.ctx.db
      .selectFrom('auditArchiveBatches')
      .selectAll()
      .where('organizationId', '=', admin.organizationId)
      .executeTakeFirstOrThrow();
    expect(path.basename(batch.objectKey)).toBe(orphans[0]);
    expect(ok(await admin.client.post('/_api/security/integrity-check'))).toMatchObject({ isValid: true });
  });

  it('two requests at once record one run, and each entry is archived once', async () => {
    const admin = await oldFirm('Concurrent LLP');
    await token(admin, 'MFA_SYSTEM_OPERATIONS');
    const [a, b] = await Promise.all([archive(admin, false), archive(admin, false)]);
    expect(ok(a).runId).toBeDefined();
    expect(ok(b).runId).toBe(ok(a).runId);
    const runs = await t.ctx.db.selectFrom('auditArchivalRuns').selectAll().where('organizationId', '=', admin.organizationId).execute();
    expect(runs).toHaveLength(1);
    expect(await runArchivalJobs()).toEqual({ completed: 1, failed: 0 });
    expect((await rowsOf(admin.organizationId)).filter((r) => r.archived)).toHaveLength(12);
    expect((await rowsOf(admin.organizationId)).filter((r) => r.action === 'AUDIT_ARCHIVAL_STARTED')).toHaveLength(1);
  });

  it('a run whose job fails its last retry is failed and audited, and a new request starts again', async () => {
    const admin = await oldFirm('Failing LLP');
    const runId = ok(await archive(admin, false)).runId!;
    const config = t.ctx.config as { failpoints: Failpoints };
    const before = config.failpoints;
    config.failpoints = parseFailpoints('archival.after-object-write=error') as Failpoints;
    try {
      await expect(runArchivalJob(t.ctx, { runId, organizationId: admin.organizationId }, { retryCount: 5 })).rejects.toThrow();
    } finally {
      config.failpoints = before;
    }
    expect(await latest(admin)).toMatchObject({ runId, state: 'failed', message: ARCHIVAL_MSG.archivalRunFailed, entriesDone: 0 });
    const failedEntry = (await rowsOf(admin.organizationId)).filter((r) => r.action === 'AUDIT_ARCHIVAL_FAILED');
    expect(failedEntry).toHaveLength(1);
    expect(failedEntry[0]).toMatchObject({ actorId: null, targetId: runId });
    // Its queued job finds the run ended and does nothing; a new request records a new run that archives all 12.
    await runArchivalJobs();
    const next = await archiveFully(admin);
    expect(next.runId).not.toBe(runId);
    expect(await latest(admin)).toMatchObject({ runId: next.runId, state: 'completed', entriesDone: 12 });
  });

  it("the latest run is for administrators, answers null before any run, and never another organization's run", async () => {
    const admin = await newOrganizationWithTotp(t, 'No Runs LLP');
    expect(await latest(admin)).toBeNull();
    const user = await addMember(t, admin.organizationId, 'user');
    expect((await user.client.get('/_api/system/archival-runs/latest')).statusCode).toBe(403);
    const noCode = await admin.client.get('/_api/system/archival-runs/latest');
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { operation: 'MFA_SYSTEM_OPERATIONS' } });
  });
});

describe('POST /_api/audit-logs/retrieve-archived and check-retrievals', () => {
  let admin: TotpMember;
  let archivedIds: string[];
  let originals: Map<string, Record<string, unknown>>;

  beforeAll(async () => {
    admin = await oldFirm('Retrieve LLP');
    originals = new Map((await rowsOf(admin.organizationId)).map((r) => [String(r.id), r.details]));
    await archiveFully(admin);
    archivedIds = (await rowsOf(admin.organizationId)).filter((r) => r.archived).map((r) => String(r.id));
  });

  const retrieve = (m: { client: TotpMember['client'] }, logId: unknown, organizationId: unknown) =>
    m.client.post('/_api/audit-logs/retrieve-archived', { logId, organizationId });
  const checkAll = async (m: { client: TotpMember['client'] }, body: Record<string, unknown>): Promise<CheckRetrievalsResponse> =>
    ok(await m.client.post('/_api/audit-logs/check-retrievals', body));

  it('validates its body', async () => {
    for (const [body, message] of [
      [{ organizationId: admin.organizationId }, ARCHIVAL_MSG.logIdRequired],
      [{ logId: '', organizationId: admin.organizationId }, ARCHIVAL_MSG.logIdRequired],
      [{ logId: 'abc', organizationId: admin.organizationId }, ARCHIVAL_MSG.invalidLogId],
      [{ logId: '1' }, ARCHIVAL_MSG.organizationIdRequired],
      [{ logId: '1', organizationId: '' }, ARCHIVAL_MSG.organizationIdRequired],
      [{ logId: '1', organizationId: 'nope' }, ARCHIVAL_MSG.invalidOrganizationId],
    ] as const) {
      const r = await admin.client.post('/_api/audit-logs/retrieve-archived', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().error).toBe(message);
    }
    const c = await admin.client.post('/_api/audit-logs/check-retrievals', {});
    expect(c.statusCode).toBe(400);
    expect(c.json().error).toBe(ARCHIVAL_MSG.organizationIdRequired);
    const many = await admin.client.post('/_api/audit-logs/check-retrievals', {
      organizationId: admin.organizationId,
      logIds: Array.from({ length: 101 }, (_, i) => String(i + 1)),
    });
    expect(many.statusCode).toBe(400);
    expect(many.json().error).toBe(ARCHIVAL_MSG.logIdsTooMany);
  });

  it("answers 404 for another organization's log or organization, and for a log the caller cannot see; guests are refused", async () => {
    const other = await oldFirm('Other LLP');
    const otherLog = (await rowsOf(other.organizationId))[0]!;
    for (const r of [
      await retrieve(admin, String(otherLog.id), admin.organizationId),
      await retrieve(admin, archivedIds[0], other.organizationId),
      await retrieve(admin, '999999999999', admin.organizationId),
    ]) {
      expect(r.statusCode).toBe(404);
      expect(r.json().error).toBe(ARCHIVAL_MSG.logNotFound);
    }
    expect((await admin.client.post('/_api/audit-logs/check-retrievals', { organizationId: other.organizationId })).statusCode).toBe(404);
    // A user sees their own entries and the shared kinds (creating a matter is shared); an administrator's
    // sign-in is not theirs to see.
    const user = await addMember(t, admin.organizationId, 'user');
    const signIn = (await rowsOf(admin.organizationId)).find((r) => r.actorId === admin.userId && r.action !== 'CREATE_MATTER')!;
    expect((await retrieve(user, String(signIn.id), admin.organizationId)).statusCode).toBe(404);
    expect((await retrieve(user, archivedIds[0], admin.organizationId)).statusCode).toBe(200);
    const guest = await addMember(t, admin.organizationId, 'guest');
    const g = await retrieve(guest, archivedIds[0], admin.organizationId);
    expect(g.statusCode).toBe(403);
    expect(g.json().error).toBe(AUDIT_LOG_MSG.guestsNotAllowed);
  });

  it('retrieves through a durable job, checks the batch and caches the details for 24 hours', async () => {
    const logId = archivedIds[1]!;
    const first = ok(await retrieve(admin, logId, admin.organizationId));
    expect(first).toMatchObject({ status: 'in-progress', message: ARCHIVAL_MSG.retrievalInProgress });
    expect(Date.parse(first.estimatedCompletionTime)).toBeGreaterThanOrEqual(Date.parse(first.startedAt));
    // Asked again while pending: still in progress, no second job.
    expect(ok(await retrieve(admin, logId, admin.organizationId)).status).toBe('in-progress');
    expect(await checkAll(admin, { organizationId: admin.organizationId, logIds: [logId] })).toMatchObject({
      completed: 0,
      logIds: [],
      pending: [logId],
    });

    expect(await t.ctx.jobs.runDueJobs([ARCHIVE_RETRIEVAL_JOB])).toMatchObject({ failed: 0 });
    const cached = ok(await retrieve(admin, logId, admin.organizationId));
    expect(cached).toMatchObject({ status: 'cached', details: originals.get(logId) });
    expect(Date.parse(cached.cachedUntil)).toBeGreaterThan(Date.now() + 23.9 * 3_600_000);
    expect(await checkAll(admin, { organizationId: admin.organizationId, logIds: [logId] })).toEqual({
      completed: 1,
      logIds: [logId],
      pending: [],
      failed: [],
      failures: [],
    });
    // Without log ids: the caller's retrievals of the last 24 hours.
    expect((await checkAll(admin, { organizationId: admin.organizationId })).logIds).toContain(logId);

    // A cache past its 24 hours is retrieved again.
    await t.ctx.db
      .updateTable('auditLogRetrievals')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('logId', '=', logId)
      .execute();
    expect(ok(await retrieve(admin, logId, admin.organizationId)).status).toBe('in-progress');
    await t.ctx.jobs.runDueJobs([ARCHIVE_RETRIEVAL_JOB]);
    expect(ok(await retrieve(admin, logId, admin.organizationId)).status).toBe('cached');
  });

  it('waits for the configured delay on the local store', async () => {
    const logId = archivedIds[2]!;
    t.ctx.config.archiveRetrievalDelaySeconds = 2;
    try {
      const started = ok(await retrieve(admin, logId, admin.organizationId));
      expect(started.status).toBe('in-progress');
      expect(Date.parse(started.estimatedCompletionTime) - Date.parse(started.startedAt)).toBe(2000);
      // Not due yet: the job is not run.
      await t.ctx.jobs.runDueJobs([ARCHIVE_RETRIEVAL_JOB]);
      expect((await checkAll(admin, { organizationId: admin.organizationId, logIds: [logId] })).pending).toEqual([logId]);
      await vi.waitFor(
        async () => {
          await t.ctx.jobs.runDueJobs([ARCHIVE_RETRIEVAL_JOB]);
          expect((await checkAll(admin, { organizationId: admin.organizationId, logIds: [logId] })).logIds).toEqual([logId]);
        },
        { timeout: 15_000, interval: 250 },
      );
    } finally {
      t.ctx.config.archiveRetrievalDelaySeconds = 0;
    }
  });

  it('on S3, a batch in a class that needs a restore is restored first, then read', async () => {
    const logId = archivedIds[4]!;
    const real = t.ctx.store;
    let restore: VaultObjectInfo['restore'] = { required: true, ongoing: false, readyUntil: null };
    const restores: string[] = [];
    // The local store's bytes behind an S3 face whose class (GLACIER) needs a restore before reading.
    const glacier = Object.create(real, {
      kind: { value: 's3' },
      vaultInfo: { value: async (key: string) => ({ ...(await real.vaultInfo(key))!, storageClass: 'GLACIER', restore }) },
      requestRestore: {
        value: async (key: string) => {
          restores.push(key);
          restore = { required: true, ongoing: true, readyUntil: null };
          return restore;
        },
      },
    }) as BlobStore;
    const ctx = t.ctx as { store: BlobStore };
    ctx.store = glacier;
    try {
      const started = ok(await retrieve(admin, logId, admin.organizationId));
      expect(started.status).toBe('in-progress');
      // The dialog's estimate on S3: five minutes.
      expect(Date.parse(started.estimatedCompletionTime) - Date.parse(started.startedAt)).toBe(5 * 60_000);
      const job = { organizationId: admin.organizationId, logId };
      await runRetrieval(t.ctx, job);
      expect(restores).toHaveLength(1);
      // Still being restored: asked again later, nothing asked twice, nothing read yet.
      await runRetrieval(t.ctx, job);
      expect(restores).toHaveLength(1);
      expect((await checkAll(admin, { organizationId: admin.organizationId, logIds: [logId] })).pending).toEqual([logId]);
      restore = { required: true, ongoing: false, readyUntil: new Date(Date.now() + 86_400_000) };
      await runRetrieval(t.ctx, job);
      expect(ok(await retrieve(admin, logId, admin.organizationId))).toMatchObject({ status: 'cached', details: originals.get(logId) });
    } finally {
      ctx.store = real;
    }
  });

  it('an entry that is not archived answers its details at once', async () => {
    const live = (await rowsOf(admin.organizationId)).find((r) => !r.archived)!;
    expect(ok(await retrieve(admin, String(live.id), admin.organizationId))).toEqual({ status: 'cached', details: live.details });
  });

  it('a batch altered in storage is refused at retrieval and by the integrity check', async () => {
    const logId = archivedIds[3]!;
    const batch = await t.ctx.db
      .selectFrom('auditArchiveBatches')
      .selectAll()
      .where('organizationId', '=', admin.organizationId)
      .executeTakeFirstOrThrow();
    const file = path.join(t.dataDir, 'objects', ...batch.objectKey.split('/'));
    fs.chmodSync(file, 0o600);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 0xff;
    fs.writeFileSync(file, bytes);

    expect(ok(await retrieve(admin, logId, admin.organizationId)).status).toBe('in-progress');
    await t.ctx.jobs.runDueJobs([ARCHIVE_RETRIEVAL_JOB]);
    expect(await checkAll(admin, { organizationId: admin.organizationId, logIds: [logId] })).toMatchObject({
      completed: 0,
      failed: [logId],
      failures: [{ logId, message: ARCHIVAL_MSG.batchAltered }],
    });
    const check = ok(await admin.client.post('/_api/security/integrity-check'));
    expect(check.isValid).toBe(false);
    expect(check.invalidEntries[0].reason).toMatch(/no archive batch holds its details/);
  });
});
