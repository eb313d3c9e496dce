/**
 * An approval whose server dies before the approved action runs: the server is killed with SIGKILL after the
 * approval committed and before the vault it approves was made (held by the failpoint approvals.after-approve,
 * whose log line is the signal to kill). After a restart the durable approval-execute job carries the vault out,
 * once: the matter vaulted, one VAULT_MATTER entry by the requester, one APPROVAL_EXECUTED.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { currentTotp } from '../src/features/mfa/index.js';
import { hashPassword, insertUser } from '../src/features/users/index.js';
import { DEFAULT_PERMISSIONS } from '@strongroom/contracts';
import { PASSWORD, createMatter, newOrganizationWithTotp, ok, uploadFile } from './factories.js';
import { enrollTotp, signInWithEmailCode, uniqueEmail, type TestApp } from './helpers.js';
import { cleanUp, cookieHeader, post, startServer, serverSetup } from './process-helpers.js';

afterAll(cleanUp);

describe('a server killed between an approval and the action it approves', () => {
  it('carries the action out after the restart, by itself, exactly once', async () => {
    const { base, sink, env } = await serverSetup();
    const reopen = async () => {
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
      const built = await buildApp({ config, logger: false });
      return { ...built, sink, config, shutdown: async () => undefined } as unknown as TestApp;
    };
    const t = await reopen();
    const admin = await newOrganizationWithTotp(t, 'Crash Approval LLP');
    const email = uniqueEmail('admin');
    const row = await insertUser(t.ctx.db, {
      organizationId: admin.organizationId,
      email,
      fullName: 'Sam Second',
      passwordHash: await hashPassword(PASSWORD),
      role: 'admin',
      permissions: DEFAULT_PERMISSIONS.admin,
    });
    const secondClient = await signInWithEmailCode(t, { email, password: PASSWORD });
    const secondSecret = await enrollTotp(secondClient);
    // Each code is taken once: the last step used is forgotten before the next (as another test minute would).
    const code = async (userId: number, secret: string) => {
      await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', userId).execute();
      return currentTotp(secret);
    };
    ok(
      await admin.client.post('/_api/settings/approvals', {
        actions: ['VAULT_MATTER'],
        mfaToken: await code(admin.userId, admin.totpSecret),
      }),
    );
    const matter = await createMatter(admin.client);
    await uploadFile(t, admin.client, matter.id, 'Engagement.pdf', Buffer.from('engagement letter'));
    const asked = await admin.client.post('/_api/vault/start', {
      matterId: matter.id,
      retentionYears: 5,
      mfaToken: await code(admin.userId, admin.totpSecret),
    });
    expect(asked.statusCode).toBe(202);
    const requestId = asked.json().requestId as string;
    const cookie = cookieHeader(secondClient);
    await t.close();

    const state = async () => {
      const after = await reopen();
      try {
        const m = await after.ctx.db.selectFrom('matters').select('isVaulted').where('id', '=', matter.id).executeTakeFirstOrThrow();
        const r = await after.ctx.db
          .selectFrom('approvalRequests')
          .select(['status', 'executedAt'])
          .where('id', '=', requestId)
          .executeTakeFirstOrThrow();
        const actions = await after.ctx.db
          .selectFrom('auditLogs')
          .select(['action', 'actorId'])
          .where('organizationId', '=', admin.organizationId)
          .where('action', 'in', ['VAULT_MATTER', 'APPROVAL_GRANTED', 'APPROVAL_EXECUTED'])
          .execute();
        return { vaulted: m.isVaulted, status: r.status, executed: r.executedAt !== null, actions };
      } finally {
        await after.close();
      }
    };
    try {
      const first = startServer({ ...env, JOB_RUNNER: 'off', FAILPOINTS: 'approvals.after-approve=pause(600000,once)' });
      await first.waitFor('Strongroom is ready');
      void post(base, cookie, '/_api/approvals/decide', {
        requestId,
        decision: 'approve',
        mfaToken: currentTotp(secondSecret, Date.now() + 30_000),
      }).catch(() => undefined);
      await first.waitFor('failpoint approvals.after-approve reached');
      first.child.kill('SIGKILL');
      await first.exited;

      // Approved and recorded, not yet carried out.
      expect(await state()).toMatchObject({ vaulted: false, status: 'approved', executed: false });

      const second = startServer({ ...env, JOB_RUNNER: 'embedded' });
      await second.waitFor('Strongroom is ready');
      second.child.kill('SIGTERM');
      await second.exited;
      // The job may still have been waiting for its turn: run servers until it is carried out.
      for (let i = 0; i < 20 && !(await state()).executed; i += 1) {
        const again = startServer({ ...env, JOB_RUNNER: 'embedded' });
        await again.waitFor('Strongroom is ready');
        await new Promise((r) => setTimeout(r, 3000));
        again.child.kill('SIGTERM');
        await again.exited;
      }
    } finally {
      await sink.close();
    }
    const end = await state();
    expect(end).toMatchObject({ vaulted: true, status: 'approved', executed: true });
    expect(end.actions.filter((a) => a.action === 'VAULT_MATTER')).toEqual([{ action: 'VAULT_MATTER', actorId: admin.userId }]);
    expect(end.actions.filter((a) => a.action === 'APPROVAL_GRANTED')).toEqual([{ action: 'APPROVAL_GRANTED', actorId: row.id }]);
    expect(end.actions.filter((a) => a.action === 'APPROVAL_EXECUTED')).toHaveLength(1);
  }, 180_000);
});
