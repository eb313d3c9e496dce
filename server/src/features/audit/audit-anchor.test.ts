/**
 * The audit chain's anchor in the write-once store, against someone who can write the database but not the
 * store: the newest entries deleted and the chain head rewound, the same with the signed-head rows deleted, the
 * whole chain rewritten with fresh hashes and every row fixed to match. Each is found once a head was signed
 * after the entries touched. Also: a fresh organization's answer before any head was signed, the signing that
 * refuses a chain which no longer extends its signed head, concurrent signers, and the periodic signing with
 * the job runner running.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IntegrityCheckResponse } from '@strongroom/contracts';
import { entryHash, GENESIS_HASH } from '../../shared/audit-hash.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createMatter, newOrganization, ok, type Member } from '../../../test/factories.js';
import { startWorker } from '../../worker-runtime.js';
import { signAllChainHeads, signChainHead, startAuditHeadSigning, verifyOrganizationChain } from './index.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
});
afterAll(() => t.shutdown());

async function firm(name: string): Promise<Member> {
  const admin = await newOrganization(t, name);
  for (let i = 0; i < 3; i++) await createMatter(admin.client, { matterName: `${name} matter ${i}` });
  return admin;
}

const check = async (m: Member): Promise<IntegrityCheckResponse> => ok(await m.client.post('/_api/security/integrity-check'));
const rows = (orgId: string) => t.ctx.db.selectFrom('auditLogs').selectAll().where('chainKey', '=', orgId).orderBy('seq').execute();
const storedHeads = (orgId: string) => t.ctx.store.listKeys(`vault/audit-heads/${orgId}/`);

/** What an intruder with database access does to hide the newest entries: delete them and rewind the head row. */
async function truncate(orgId: string, keep: number): Promise<void> {
  const all = await rows(orgId);
  await t.ctx.db.deleteFrom('auditLogs').where('chainKey', '=', orgId).where('seq', '>', String(keep)).execute();
  await t.ctx.db
    .updateTable('auditChainHeads')
    .set({ lastSeq: String(keep), lastHash: all[keep - 1]!.hash })
    .where('chainKey', '=', orgId)
    .execute();
}

describe('the write-once anchor of the audit chain', () => {
  it('a fresh organization has no signed head until the check (or the interval) signs one; then it is named', async () => {
    const admin = await firm('Fresh LLP');
    const before = await verifyOrganizationChain(t.ctx, admin.organizationId);
    expect(before).toMatchObject({ isValid: true, signedHead: null, anchor: { status: 'none' } });
    expect(before.anchor.message).toMatch(/^no signed head yet/);
    expect(await storedHeads(admin.organizationId)).toEqual([]);

    const n = (await rows(admin.organizationId)).length;
    const res = await check(admin);
    expect(res.isValid).toBe(true);
    expect(res.anchor.status).toBe('signed');
    expect(res.signedHead).toMatchObject({ seq: n, hash: (await rows(admin.organizationId))[n - 1]!.hash });
    expect(res.signedHead!.objectKey).toBe((await storedHeads(admin.organizationId)).at(-1));
    expect(res.signedHead!.keyId).toMatch(/^[0-9a-f]{64}$/);
    expect(res.anchor.message).toContain(`Entries up to ${n} are anchored`);
  });

  it('(a) the newest entries deleted and the chain head rewound: found by the stored head, which signing will not move back', async () => {
    const admin = await firm('Rewound LLP');
    const signed = (await signChainHead(t.ctx, admin.organizationId, 'manual'))!;
    const keep = signed.seq - 2;
    await truncate(admin.organizationId, keep);

    const res = await check(admin);
    expect(res.isValid).toBe(false);
    expect(res.invalidEntries).toContainEqual({
      id: null,
      seq: signed.seq,
      reason: `entries ${keep + 1} to ${signed.seq} were removed after the chain head was signed`,
    });
    expect(res.signedHead).toMatchObject({ seq: signed.seq, objectKey: signed.objectKey });

    // The chain grows again past the signed position: the signer refuses to vouch for it, so the anchor stays.
    for (let i = 0; i < 4; i++) await createMatter(admin.client, { matterName: `After ${i}` });
    const run = await signAllChainHeads(t.ctx, 'interval', admin.organizationId);
    expect(run.signed).toEqual([]);
    expect(run.failed[0]!.error).toContain(`entry ${signed.seq} no longer has the hash its signed head vouches for`);
    expect(await storedHeads(admin.organizationId)).toEqual([signed.objectKey]);
    const again = await check(admin);
    expect(again.isValid).toBe(false);
    expect(again.invalidEntries.map((e) => e.reason)).toContain('the chain differs from its signed head: entries were rewritten');
  });

  it('(b) the same with the audit_signed_heads rows deleted: the store still holds the head', async () => {
    const admin = await firm('No Rows LLP');
    const signed = (await signChainHead(t.ctx, admin.organizationId, 'manual'))!;
    const keep = signed.seq - 3;
    await truncate(admin.organizationId, keep);
    await t.ctx.db.deleteFrom('auditSignedHeads').where('chainKey', '=', admin.organizationId).execute();

    const res = await check(admin);
    expect(res.isValid).toBe(false);
    expect(res.invalidEntries).toContainEqual({
      id: null,
      seq: signed.seq,
      reason: `entries ${keep + 1} to ${signed.seq} were removed after the chain head was signed`,
    });
    expect(res.signedHead).toMatchObject({ seq: signed.seq, hash: signed.hash, objectKey: signed.objectKey });
    expect(res.anchor.status).toBe('signed');
  });

  it('(c) the whole chain rewritten consistently, head and head rows fixed: the stored head does not match', async () => {
    const admin = await firm('Rewritten LLP');
    const signed = (await signChainHead(t.ctx, admin.organizationId, 'manual'))!;
    const all = await rows(admin.organizationId);
    let prev = GENESIS_HASH;
    const newHashes: string[] = [];
    for (const r of all) {
      const details = r.seq === all[1]!.seq ? { matterName: 'Never existed' } : r.details;
      const hash = entryHash(prev, { ...r, details, createdAt: new Date(r.createdAt) });
      await t.ctx.db
        .updateTable('auditLogs')
        .set({ details: JSON.stringify(details), prevHash: prev, hash })
        .where('id', '=', r.id)
        .execute();
      newHashes.push(hash);
      prev = hash;
    }
    await t.ctx.db.updateTable('auditChainHeads').set({ lastHash: prev }).where('chainKey', '=', admin.organizationId).execute();
    // The head row is made to agree with the rewritten chain (its signature cannot be made anew).
    await t.ctx.db.updateTable('auditSignedHeads').set({ hash: prev }).where('chainKey', '=', admin.organizationId).execute();

    const res = await check(admin);
    expect(res.isValid).toBe(false);
    const reasons = res.invalidEntries.map((e) => e.reason);
    expect(reasons).toContain('the chain differs from its signed head: entries were rewritten');
    expect(reasons).toContain(`the database's record of the signed head at entry ${signed.seq} differs from its stored object`);
    expect(res.signedHead).toMatchObject({ seq: signed.seq, hash: signed.hash });
    expect(res.signedHead!.hash).not.toBe(newHashes.at(-1));
  });

  it('a head row pointing at another object, or at none, is a finding; the store is listed instead', async () => {
    const admin = await firm('Pointer LLP');
    const first = (await signChainHead(t.ctx, admin.organizationId, 'manual'))!;
    await createMatter(admin.client, { matterName: 'Later' });
    const second = (await signChainHead(t.ctx, admin.organizationId, 'manual'))!;
    expect((await storedHeads(admin.organizationId)).sort()).toEqual([first.objectKey, second.objectKey].sort());
    // The newest row is pointed at a key that holds nothing.
    await t.ctx.db
      .updateTable('auditSignedHeads')
      .set({ objectKey: `vault/audit-heads/${admin.organizationId}/${'9'.repeat(20)}-20990101T000000Z.json` })
      .where('chainKey', '=', admin.organizationId)
      .where('seq', '=', String(second.seq))
      .execute();
    const res = await verifyOrganizationChain(t.ctx, admin.organizationId);
    expect(res.isValid).toBe(false);
    expect(res.invalidEntries[0]!.reason).toContain(
      `the database's record of the signed head at entry ${second.seq} has no valid stored object`,
    );
    expect(res.signedHead).toMatchObject({ seq: second.seq, objectKey: second.objectKey });
  });

  it('signers racing on one position write one head', async () => {
    const admin = await firm('Racing LLP');
    const results = await Promise.all(Array.from({ length: 4 }, () => signChainHead(t.ctx, admin.organizationId, 'interval')));
    expect(new Set(results.map((r) => r!.objectKey)).size).toBe(1);
    expect(await storedHeads(admin.organizationId)).toEqual([results[0]!.objectKey]);
    const dbRows = await t.ctx.db.selectFrom('auditSignedHeads').select('seq').where('chainKey', '=', admin.organizationId).execute();
    expect(dbRows).toHaveLength(1);
  });
});

/** Waits until the organization's newest stored head is at `seq`; fails past the deadline. */
async function signedWithin(app: TestApp, org: string, seq: number, deadlineMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const keys = await app.ctx.store.listKeys(`vault/audit-heads/${org}/`);
    if (keys.length && Number(/\/(\d{20})-/.exec(keys.at(-1)!)![1]) >= seq) return;
    if (Date.now() - started > deadlineMs) throw new Error(`entry ${seq} was not signed within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const chainHeadSeq = async (app: TestApp, org: string) =>
  Number((await app.ctx.db.selectFrom('auditChainHeads').select('lastSeq').where('chainKey', '=', org).executeTakeFirstOrThrow()).lastSeq);

// A worker shares the database over PostgreSQL only (PGlite has one owner process).
if (process.env.TEST_DB_KIND === 'postgres')
  describe('periodic signing by a worker process beside an app that runs no jobs', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp({ JOB_RUNNER: 'off', AUDIT_HEAD_INTERVAL_SECONDS: '3' });
    });
    afterAll(() => app.shutdown());

    it('the app queues the signing at start; the worker signs a change within the interval', async () => {
      const admin = await newOrganization(app, 'Worker Cadence LLP');
      const org = admin.organizationId;
      // What main.ts does at start; with JOB_RUNNER=off the periodic runs are left to the worker.
      await startAuditHeadSigning(app.ctx);
      const silent = {
        level: 'silent',
        info() {},
        warn() {},
        error() {},
        debug() {},
        fatal() {},
        trace() {},
        child: () => silent,
      } as never;
      const worker = await startWorker({ config: app.config, log: silent, database: app.database, migrate: false });
      try {
        await createMatter(admin.client, { matterName: 'Signed by the worker' });
        await signedWithin(app, org, await chainHeadSeq(app, org), 3_000 + 8_000);
      } finally {
        await worker.close();
      }
    }, 60_000);
  });

describe('periodic signing with the job runner running', () => {
  let live: TestApp;
  beforeAll(async () => {
    live = await createTestApp({ JOB_RUNNER: 'embedded', AUDIT_HEAD_INTERVAL_SECONDS: '3' });
  });
  afterAll(() => live.shutdown());

  it('a change is signed into the store within the interval, and so is the next one', async () => {
    const admin = await newOrganization(live, 'Cadence LLP');
    const org = admin.organizationId;
    await startAuditHeadSigning(live.ctx);
    const headSeq = async () =>
      Number(
        (await live.ctx.db.selectFrom('auditChainHeads').select('lastSeq').where('chainKey', '=', org).executeTakeFirstOrThrow()).lastSeq,
      );
    const newestStored = async () => {
      const keys = await live.ctx.store.listKeys(`vault/audit-heads/${org}/`);
      return keys.length ? Number(/\/(\d{20})-/.exec(keys.at(-1)!)![1]) : 0;
    };
    expect(await newestStored()).toBe(await headSeq());

    for (const name of ['First change', 'Second change']) {
      await createMatter(admin.client, { matterName: name });
      const seq = await headSeq();
      expect(await newestStored()).toBeLessThan(seq);
      // The interval, plus the runner's polling and slack for a loaded machine.
      await signedWithin(live, org, seq, 3_000 + 8_000);
    }
    // A signing stores the signed head first and records it after: the record may follow the object by a moment.
    await vi.waitFor(
      async () => {
        const reasons = await live.ctx.db
          .selectFrom('auditSignedHeads')
          .select('reason')
          .where('chainKey', '=', org)
          .orderBy('seq')
          .execute();
        expect(reasons.map((r) => r.reason)).toEqual(['start', 'interval', 'interval']);
      },
      { timeout: 10_000, interval: 100 },
    );
  }, 60_000);
});
