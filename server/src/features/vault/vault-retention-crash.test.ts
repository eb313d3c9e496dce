/**
 * Retention end with a real server process killed at the worst moment: a vaulted file has left the store but
 * its row is not yet marked (the failpoint vault.retention.after-delete holds the run there; its log
 * line is the signal to kill -9). The next run finishes: every file gone, each recorded once, one certificate
 * of destruction, one RETENTION_CLEANUP listing every file.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { signedCertificateSchema } from '@strongroom/contracts';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { verifyCertificate } from '../../platform/signing.js';
import { createMatter, newOrganization, sha256, uploadFile } from '../../../test/factories.js';
import type { TestApp } from '../../../test/helpers.js';
import { cleanUp, serverSetup, startServer } from '../../../test/process-helpers.js';
import { enqueueRetentionEnd, runRetentionEnd } from './vault-retention.jobs.js';

afterAll(cleanUp);

describe('a server killed while retention end deletes vaulted files', () => {
  it('finishes on the next run with every file deleted and recorded once', async () => {
    const { sink, env, dataDir } = await serverSetup();
    const reopen = async () => {
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
      const built = await buildApp({ config, logger: false });
      return { ...built, sink, config, dataDir, shutdown: async () => undefined } as unknown as TestApp;
    };

    // A vaulted matter whose retention ended, not held, with five files in the vault under locks that run out now.
    const t = await reopen();
    const admin = await newOrganization(t, 'Retention Crash LLP');
    const m = await createMatter(admin.client, { matterName: 'Disposal Due' });
    const files: Array<{ key: string; bytes: Buffer; path: string }> = [];
    let lockEnd = 0;
    for (let i = 0; i < 5; i++) {
      const bytes = randomBytes(256 + i);
      const node = await uploadFile(t, admin.client, m.id, `record-${i}.pdf`, bytes);
      const key = `vault/${admin.organizationId}/${m.id}/${node.id}`;
      const retainUntil = new Date(Date.now() + 1000);
      lockEnd = retainUntil.getTime();
      await t.ctx.store.copyToVault({
        sourceKey: node.storagePath,
        vaultKey: key,
        lock: { mode: 'COMPLIANCE', retainUntil, legalHold: false },
      });
      await t.ctx.db
        .insertInto('vaultObjects')
        .values({
          organizationId: admin.organizationId,
          matterId: m.id,
          nodeId: node.id,
          path: `/record-${i}.pdf`,
          objectKey: key,
          sha256: sha256(bytes),
          size: bytes.length,
          retainUntil,
          legalHold: false,
        })
        .execute();
      files.push({ key, bytes, path: `/record-${i}.pdf` });
    }
    const ended = new Date(Date.now() - 86_400_000);
    await t.ctx.db
      .updateTable('matters')
      .set({ isVaulted: true, status: 'Vaulted', vaultedAt: ended, retentionExpiresAt: ended, legalHold: false })
      .where('id', '=', m.id)
      .execute();
    await t.ctx.db
      .insertInto('vaultTransfers')
      .values({ matterId: m.id, organizationId: admin.organizationId, state: 'completed', retentionExpiresAt: ended })
      .execute();
    // Its destruction approved in the disposition review.
    await t.ctx.db
      .insertInto('dispositionReviews')
      .values({
        organizationId: admin.organizationId,
        matterId: m.id,
        retentionExpiresAt: ended,
        status: 'approved',
        approvedBy: JSON.stringify([{ userId: admin.userId, name: 'Ada Admin', email: admin.email }]),
        approvedAt: new Date(),
      })
      .execute();
    // The daily run, due as the server starts.
    await enqueueRetentionEnd(t.ctx);
    await vi.waitFor(
      () => {
        if (Date.now() <= lockEnd) throw new Error('the locks have not run out yet');
      },
      { timeout: 5000, interval: 50 },
    );
    await t.close();

    try {
      const first = startServer({ ...env, JOB_RUNNER: 'embedded', FAILPOINTS: 'vault.retention.after-delete=pause(600000,once)' });
      // The run starts with the server (the job is due); the hook holds it inside its transaction, which on the
      // embedded database holds the one connection, so the server says no more until it is killed.
      await first.waitFor('failpoint vault.retention.after-delete reached', 120_000);
      first.child.kill('SIGKILL');
      await first.exited;
    } finally {
      await sink.close();
    }

    const after = await reopen();
    try {
      // One object left the store; its row was never marked.
      const present = await Promise.all(files.map(async (f) => (await after.ctx.store.vaultInfo(f.key)) !== null));
      expect(present.filter((p) => !p)).toHaveLength(1);
      const rows = () =>
        after.ctx.db.selectFrom('vaultObjects').select(['path', 'state']).where('matterId', '=', m.id).orderBy('path').execute();
      expect((await rows()).every((r) => r.state === 'vaulted')).toBe(true);

      // The next run finishes.
      expect(await runRetentionEnd(after.ctx)).toMatchObject({ mattersFinished: 1, filesDeleted: 5 });
      for (const f of files) expect(await after.ctx.store.vaultInfo(f.key)).toBeNull();
      expect((await rows()).every((r) => r.state === 'destroyed')).toBe(true);
      const certs = await after.ctx.db.selectFrom('vaultCertificates').selectAll().where('matterId', '=', m.id).execute();
      expect(certs).toHaveLength(1);
      const signed = signedCertificateSchema.parse(certs[0]!.body);
      expect(verifyCertificate(signed)).toBe(true);
      expect(signed.payload.files.map((f) => f.path)).toEqual(files.map((f) => f.path));
      const cleanups = await after.ctx.db
        .selectFrom('auditLogs')
        .select('details')
        .where('action', '=', 'RETENTION_CLEANUP')
        .where('organizationId', '=', admin.organizationId)
        .execute();
      expect(cleanups).toHaveLength(1);
      expect((cleanups[0]!.details as { files: unknown[] }).files).toEqual(
        files.map((f) => ({ path: f.path, fileVersion: 1, sha256: sha256(f.bytes), size: f.bytes.length })),
      );
      // A further run changes nothing.
      expect(await runRetentionEnd(after.ctx)).toEqual({ mattersFinished: 0, filesDeleted: 0, mattersWaiting: 0 });
    } finally {
      await after.close();
    }
  }, 360_000);
});
