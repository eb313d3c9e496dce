/**
 * Archival and retrieval on an S3 store (s3rver on loopback): the batch is written with putLocked under vault/,
 * read back and verified, and a retrieval reads it again through the durable job. s3rver has no Object Lock and
 * no restore, so the lock and the restore themselves are covered by the vault store's tests against a scripted
 * S3 client; here the archival's own path runs against a real S3 protocol server.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditFor } from '../../shared/audit.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { newOrganizationWithTotp, ok, systemMfaToken, type TotpMember } from '../../../test/factories.js';
import { startS3Server, type TestS3Server } from '../../../test/s3-server.js';
import { ARCHIVE_RUN_JOB } from './archival-runs.service.js';
import { ARCHIVE_RETRIEVAL_JOB } from './archival-retrieval.service.js';

const DAY = 86_400_000;

describe('archival and retrieval on an S3 store (s3rver)', () => {
  let s3: TestS3Server;
  let t: TestApp;
  let admin: TotpMember;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({
      JOB_RUNNER: 'off',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    admin = await newOrganizationWithTotp(t, 'Bucket Archive LLP');
  });
  afterAll(async () => {
    await t?.shutdown();
    await s3?.close();
  });

  it('archives old entries into a batch in the bucket, retrieves one entry, and the chain still holds', async () => {
    expect(t.ctx.store.kind).toBe('s3');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(Date.now() - 200 * DAY));
      const audit = auditFor({ organizationId: admin.organizationId, actor: { id: admin.userId, name: 'Old Actor', email: admin.email } });
      await t.ctx.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 7; i++)
          await audit(trx, 'CREATE_MATTER', { table: 'matters', id: `old-${i}` }, { matterName: `Old matter ${i}` });
      });
    } finally {
      vi.useRealTimers();
    }
    const before = await t.ctx.db.selectFrom('auditLogs').selectAll().where('chainKey', '=', admin.organizationId).orderBy('seq').execute();
    const mfaToken = await systemMfaToken(admin, 'MFA_SYSTEM_OPERATIONS', 1);
    expect(ok(await admin.client.post('/_api/system/archive-audit-logs', { dryRun: false }, { 'x-mfa-token': mfaToken }))).toMatchObject({
      archivedCount: 0,
      dryRun: false,
      state: 'queued',
      entriesTotal: 7,
    });
    expect(await t.ctx.jobs.runDueJobs([ARCHIVE_RUN_JOB])).toEqual({ completed: 1, failed: 0 });
    const batch = await t.ctx.db
      .selectFrom('auditArchiveBatches')
      .selectAll()
      .where('organizationId', '=', admin.organizationId)
      .executeTakeFirstOrThrow();
    expect(batch.objectKey.startsWith(`vault/${admin.organizationId}/audit/`)).toBe(true);
    expect(await t.ctx.store.sha256(batch.objectKey)).toBe(batch.sha256);

    const archived = (
      await t.ctx.db
        .selectFrom('auditLogs')
        .selectAll()
        .where('chainKey', '=', admin.organizationId)
        .where('archived', '=', true)
        .orderBy('seq')
        .execute()
    )[3]!;
    const original = before.find((r) => r.id === archived.id)!;
    const started = ok(
      await admin.client.post('/_api/audit-logs/retrieve-archived', { logId: archived.id, organizationId: admin.organizationId }),
    );
    expect(started.status).toBe('in-progress');
    await t.ctx.jobs.runDueJobs([ARCHIVE_RETRIEVAL_JOB]);
    expect(
      ok(await admin.client.post('/_api/audit-logs/retrieve-archived', { logId: archived.id, organizationId: admin.organizationId })),
    ).toMatchObject({
      status: 'cached',
      details: original.details,
    });
    expect(ok(await admin.client.post('/_api/security/integrity-check'))).toMatchObject({ isValid: true });
  });
});
