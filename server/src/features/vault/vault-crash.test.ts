/**
 * The vault transfer killed with SIGKILL in the middle (a real server process), then started again on the same
 * DATA_DIR (local store; the embedded PGlite, or under the PostgreSQL project a fresh copy of the template
 * database): the job is taken up again and ends with every file in the vault exactly once, none lost, the
 * working copies gone and one certificate.
 *
 * The preparation (organization, administrator with an authenticator, a matter of many files, the vault start
 * with its code) is done in this process with the job runner off, so the transfer is only enqueued; then that app
 * is closed and a server process runs the job. Its failpoint vault.transfer.after-file holds
 * the run once some files are recorded and logs it: that line is the signal to kill.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../platform/db/database.js';
import { LocalBlobStore } from '../../platform/storage/index.js';
import { checkCertificateText } from '../../platform/signing-verify.js';
import { currentTotp } from '../mfa/index.js';
import { createMatter, createFolder, newOrganizationWithTotp, ok, sha256, uploadFile } from '../../../test/factories.js';
import type { TestApp } from '../../../test/helpers.js';
import { cleanUp, cookieHeader, request, serverSetup, startServer, storedKeys } from '../../../test/process-helpers.js';

afterAll(cleanUp);

const FILES = 40;
/** Files that have a second version (the first of them a third, restored). */
const VERSIONED = 6;

describe('a server killed in the middle of a vault transfer', () => {
  it('finishes after the restart with every file in the vault exactly once, none lost, and one certificate', async () => {
    const { dataDir, port, base, sink, env } = await serverSetup();

    // Preparation in this process, on the same data directory: the transfer is enqueued, not run.
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
    const built = await buildApp({ config, logger: false });
    await built.app.listen({ host: '127.0.0.1', port });
    const t = { ...built, sink, config, dataDir, shutdown: async () => undefined } as unknown as TestApp;
    const admin = await newOrganizationWithTotp(t, 'Crash Vault LLP');
    const m = await createMatter(admin.client, { matterName: 'Many files' });
    const folder = await createFolder(admin.client, m.id, 'Bundle');
    // Each file with its versions' sha256, oldest first: the first few files have a second version, and the first
    // a third restored from its first (it shares that stored object until both are in the vault).
    const uploaded: Array<{ id: string; shas: string[] }> = [];
    for (let i = 0; i < FILES; i++) {
      const name = `doc-${String(i).padStart(2, '0')}.pdf`;
      const parent = i % 2 ? folder.id : null;
      const bytes = randomBytes(2000 + i * 97);
      const f = await uploadFile(t, admin.client, m.id, name, bytes, parent);
      const shas = [sha256(bytes)];
      if (i < VERSIONED) {
        const second = randomBytes(1500 + i);
        await uploadFile(t, admin.client, m.id, name, second, parent, 'application/pdf', 'newVersion');
        shas.push(sha256(second));
      }
      if (i === 0) {
        ok(await admin.client.post('/_api/nodes/restore-version', { nodeId: f.id, versionNumber: 1 }));
        shas.push(shas[0]!);
      }
      uploaded.push({ id: f.id, shas });
    }
    const versionKeys = (prefix: string) => uploaded.flatMap((u) => u.shas.map((_, v) => `${prefix}${u.id}${v > 0 ? `.v${v + 1}` : ''}`));
    // The code used at enrolment is spent: the step is forgotten so the current one serves again.
    await built.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
    ok(await admin.client.post('/_api/vault/start', { matterId: m.id, retentionYears: 5, mfaToken: currentTotp(admin.totpSecret) }));
    const cookie = cookieHeader(admin.client);
    await built.close();

    try {
      // First run: the job records some files, then the hook holds it; the server is killed right there.
      const first = startServer({ ...env, JOB_RUNNER: 'embedded', FAILPOINTS: 'vault.transfer.after-file=pause(600000,once,after=10)' });
      await first.waitFor('failpoint vault.transfer.after-file reached', 60_000);
      first.child.kill('SIGKILL');
      await first.exited;

      // Second run on the same data directory: the job left running by the dead process is taken up again.
      const second = startServer({ ...env, JOB_RUNNER: 'embedded' });
      await second.waitFor('Strongroom is ready');
      const certificate = await vi.waitFor(
        async () => {
          const res = await fetch(`${base}/_api/vault/certificate?matterId=${m.id}`, { headers: { cookie } });
          if (res.status !== 200) throw new Error(`certificate not there yet (${res.status})`);
          return res.text();
        },
        { timeout: 90_000, interval: 500 },
      );
      expect(checkCertificateText(certificate)).toMatchObject({ ok: true });
      const payload = (JSON.parse(certificate) as { payload: { files: Array<{ sha256: string; objectKey: string }> } }).payload;
      expect(payload.files).toHaveLength(FILES + VERSIONED + 1);
      // The working copies go by the delete jobs the transfer enqueued.
      await vi.waitFor(
        () => {
          const keys = storedKeys(dataDir);
          expect(keys.filter((k) => !k.startsWith('vault/'))).toEqual([]);
        },
        { timeout: 60_000, interval: 250 },
      );
      const detail = await request<{ matter: { isVaulted: boolean } }>(base, cookie, 'GET', `/_api/matters/detail?matterId=${m.id}`);
      expect(detail.json.matter.isVaulted).toBe(true);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      await sink.close();
    }

    // Every file once in the vault, at its own key, with the bytes recorded at upload; one certificate. (The
    // installation's own vault records, signed audit heads and signing keys, live under other prefixes.)
    const vaultKeys = storedKeys(dataDir).filter((k) => k.startsWith(`vault/${admin.organizationId}/`));
    const prefix = `vault/${admin.organizationId}/${m.id}/`;
    expect(vaultKeys.filter((k) => !k.startsWith(`${prefix}certificates/`)).sort()).toEqual(versionKeys(prefix).sort());
    expect(vaultKeys.filter((k) => k.startsWith(`${prefix}certificates/`))).toHaveLength(1);
    const store = new LocalBlobStore({ dataDir, appUrl: base });
    for (const u of uploaded) {
      for (const [v, sha] of u.shas.entries()) expect(await store.sha256(`${prefix}${u.id}${v > 0 ? `.v${v + 1}` : ''}`)).toBe(sha);
    }

    const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir });
    try {
      const rows = await db.db
        .selectFrom('vaultObjects')
        .select(['nodeId', 'versionNumber', 'objectKey', 'sha256'])
        .where('matterId', '=', m.id)
        .execute();
      expect(rows.map((r) => r.objectKey).sort()).toEqual(versionKeys(prefix).sort());
      for (const r of rows) expect(r.sha256).toBe(uploaded.find((u) => u.id === r.nodeId)!.shas[r.versionNumber - 1]);
      const nodes = await db.db
        .selectFrom('nodes')
        .select(['id', 'storagePath'])
        .where('matterId', '=', m.id)
        .where('nodeType', '=', 'file')
        .execute();
      // Each node points at its current version's vault copy.
      for (const n of nodes) {
        const versions = uploaded.find((u) => u.id === n.id)!.shas.length;
        expect(n.storagePath).toBe(`${prefix}${n.id}${versions > 1 ? `.v${versions}` : ''}`);
      }
      expect(await db.db.selectFrom('vaultCertificates').select('id').where('matterId', '=', m.id).execute()).toHaveLength(1);
      const audit = await db.db.selectFrom('auditLogs').select('action').where('targetId', '=', m.id).execute();
      const count = (action: string) => audit.filter((a) => a.action === action).length;
      expect([
        count('VAULT_MATTER'),
        count('VAULT_TRANSFER_COMPLETED'),
        count('VAULT_CERTIFICATE_ISSUED'),
        count('VAULT_TRANSFER_FAILED'),
      ]).toEqual([1, 1, 1, 0]);
      const transfer = await db.db.selectFrom('vaultTransfers').selectAll().where('matterId', '=', m.id).executeTakeFirstOrThrow();
      expect(transfer).toMatchObject({ state: 'completed', filesDone: FILES, filesTotal: FILES });
      expect(transfer.attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await db.close();
    }
  }, 180_000);
});
