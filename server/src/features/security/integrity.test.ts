/**
 * POST /_api/security/integrity-check against an audit log tampered with directly in the database: an entry
 * changed, removed, moved; the newest entries removed (with and without the head row put back); the whole chain
 * rewritten with hashes computed anew. Each is found; the last two only through the signed chain head.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_LOG_MSG, type IntegrityCheckResponse } from '@strongroom/contracts';
import { entryHash, GENESIS_HASH } from '../../shared/audit.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, auditActions, createMatter, newOrganization, ok, type Member } from '../../../test/factories.js';
import { signAllChainHeads, signChainHead } from '../audit/index.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
});
afterAll(() => t.shutdown());

/** An organization with a few entries of its own: sign-in, matters created and renamed. */
async function firm(name: string): Promise<Member> {
  const admin = await newOrganization(t, name);
  for (let i = 0; i < 4; i++) await createMatter(admin.client, { matterName: `${name} matter ${i}` });
  return admin;
}

const check = async (m: Member): Promise<IntegrityCheckResponse> => ok(await m.client.post('/_api/security/integrity-check'));

const rows = (orgId: string) => t.ctx.db.selectFrom('auditLogs').selectAll().where('chainKey', '=', orgId).orderBy('seq').execute();

describe('POST /_api/security/integrity-check', () => {
  it('passes an untouched chain, counts every entry and records the check; administrators only', async () => {
    const admin = await firm('Clean LLP');
    const n = (await rows(admin.organizationId)).length;
    const res = await check(admin);
    // The check signs the head as it stands before it walks the chain, so the answer is anchored.
    expect(res).toMatchObject({
      isValid: true,
      checkedEntries: n,
      invalidEntries: [],
      signedHead: { seq: n },
      anchor: { status: 'signed' },
    });
    const last = (await auditActions(t, admin.organizationId)).at(-1)!;
    expect(last).toMatchObject({ action: 'INTEGRITY_CHECK_PASSED', details: { checkedEntries: n, invalidCount: 0 } });
    // The check's own entry is part of the chain the next check verifies.
    expect((await check(admin)).checkedEntries).toBe(n + 1);
    const user = await addMember(t, admin.organizationId, 'user');
    const guest = await addMember(t, admin.organizationId, 'guest');
    for (const m of [user, guest]) {
      const r = await m.client.post('/_api/security/integrity-check');
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toBe(AUDIT_LOG_MSG.adminsOnly);
    }
  });

  it('finds an entry changed in place', async () => {
    const admin = await firm('Edited LLP');
    const target = (await rows(admin.organizationId))[3]!;
    await t.ctx.db
      .updateTable('auditLogs')
      .set({ details: JSON.stringify({ matterName: 'Something else' }) })
      .where('id', '=', target.id)
      .execute();
    const res = await check(admin);
    expect(res.isValid).toBe(false);
    expect(res.invalidEntries[0]).toEqual({ id: target.id, seq: Number(target.seq), reason: 'entry altered' });
    expect((await auditActions(t, admin.organizationId)).at(-1)).toMatchObject({ action: 'INTEGRITY_CHECK_FAILED' });
  });

  it('finds an entry removed from the middle', async () => {
    const admin = await firm('Deleted LLP');
    const target = (await rows(admin.organizationId))[2]!;
    await t.ctx.db.deleteFrom('auditLogs').where('id', '=', target.id).execute();
    const res = await check(admin);
    expect(res.isValid).toBe(false);
    expect(res.invalidEntries[0]).toMatchObject({ id: null, seq: Number(target.seq), reason: `entry ${target.seq} is missing` });
  });

  it('finds two entries whose contents were swapped', async () => {
    const admin = await firm('Swapped LLP');
    const all = await rows(admin.organizationId);
    const [a, b] = [all[3]!, all[4]!];
    const content = (r: typeof a) => ({
      action: r.action,
      actorId: r.actorId,
      actorName: r.actorName,
      actorEmail: r.actorEmail,
      targetTable: r.targetTable,
      targetId: r.targetId,
      details: JSON.stringify(r.details),
      ipAddress: r.ipAddress,
      createdAt: r.createdAt,
    });
    await t.ctx.db.updateTable('auditLogs').set(content(b)).where('id', '=', a.id).execute();
    await t.ctx.db.updateTable('auditLogs').set(content(a)).where('id', '=', b.id).execute();
    const res = await check(admin);
    expect(res.isValid).toBe(false);
    expect(res.invalidEntries.map((e) => e.seq)).toEqual([Number(a.seq), Number(b.seq)]);
  });

  it('finds the newest entries removed: by the head row, and by the signed head when the head row is put back too', async () => {
    const admin = await firm('Truncated LLP');
    const signed = await signChainHead(t.ctx, admin.organizationId, 'manual');
    const all = await rows(admin.organizationId);
    const keep = all.length - 2;
    await t.ctx.db.deleteFrom('auditLogs').where('chainKey', '=', admin.organizationId).where('seq', '>', String(keep)).execute();
    const first = await check(admin);
    expect(first.isValid).toBe(false);
    expect(first.invalidEntries.map((e) => e.reason)).toContain(`entries ${keep + 1} to ${all.length} were removed from the end`);

    // A careful intruder also puts the head row back to the newest entry left: the signed head still shows it.
    const other = await firm('Truncated Too LLP');
    await signChainHead(t.ctx, other.organizationId, 'manual');
    const theirs = await rows(other.organizationId);
    const left = theirs.length - 3;
    await t.ctx.db.deleteFrom('auditLogs').where('chainKey', '=', other.organizationId).where('seq', '>', String(left)).execute();
    await t.ctx.db
      .updateTable('auditChainHeads')
      .set({ lastSeq: String(left), lastHash: theirs[left - 1]!.hash })
      .where('chainKey', '=', other.organizationId)
      .execute();
    const second = await check(other);
    expect(second.isValid).toBe(false);
    expect(second.invalidEntries).toEqual([
      { id: null, seq: theirs.length, reason: `entries ${left + 1} to ${theirs.length} were removed after the chain head was signed` },
    ]);
    expect(second.signedHead).toMatchObject({ seq: theirs.length, hash: theirs.at(-1)!.hash });
    expect(signed?.seq).toBe(all.length);
  });

  it('finds the whole chain rewritten with fresh hashes only through the signed head', async () => {
    const admin = await firm('Rewritten LLP');
    await signChainHead(t.ctx, admin.organizationId, 'manual');
    const all = await rows(admin.organizationId);
    let prev = GENESIS_HASH;
    for (const r of all) {
      const details = r.seq === all[2]!.seq ? { matterName: 'Never existed' } : r.details;
      const hash = entryHash(prev, { ...r, details, createdAt: new Date(r.createdAt) });
      await t.ctx.db
        .updateTable('auditLogs')
        .set({ details: JSON.stringify(details), prevHash: prev, hash })
        .where('id', '=', r.id)
        .execute();
      prev = hash;
    }
    await t.ctx.db.updateTable('auditChainHeads').set({ lastHash: prev }).where('chainKey', '=', admin.organizationId).execute();
    const res = await check(admin);
    expect(res.isValid).toBe(false);
    expect(res.invalidEntries).toEqual([
      { id: all.at(-1)!.id, seq: all.length, reason: 'the chain differs from its signed head: entries were rewritten' },
    ]);
  });

  it('finds a signed head record altered in the database', async () => {
    const admin = await firm('Forged LLP');
    const signed = (await signChainHead(t.ctx, admin.organizationId, 'manual'))!;
    await t.ctx.db
      .updateTable('auditSignedHeads')
      .set({ hash: 'f'.repeat(64) })
      .where('chainKey', '=', admin.organizationId)
      .execute();
    const res = await check(admin);
    expect(res.invalidEntries).toEqual([
      {
        id: null,
        seq: signed.seq,
        reason: `the database's record of the signed head at entry ${signed.seq} differs from its stored object`,
      },
    ]);
  });
});

describe('signed chain heads', () => {
  it('stores each signed head under a ten-year write-once lock, once per position, and the periodic run signs chains that moved', async () => {
    const admin = await firm('Signed LLP');
    const first = (await signChainHead(t.ctx, admin.organizationId, 'manual'))!;
    expect(first.objectKey).toMatch(
      new RegExp(`^vault/audit-heads/${admin.organizationId}/${String(first.seq).padStart(20, '0')}-\\d{8}T\\d{6}Z\\.json$`),
    );
    const info = (await t.ctx.store.vaultInfo(first.objectKey))!;
    expect(info.lock?.mode).toBe('COMPLIANCE');
    expect(info.lock!.retainUntil.getTime()).toBeGreaterThan(Date.now() + 9.9 * 365 * 86_400_000);
    expect(await signChainHead(t.ctx, admin.organizationId, 'manual')).toEqual(first);
    await createMatter(admin.client, { matterName: 'One more' });
    expect((await signAllChainHeads(t.ctx)).signed.length).toBeGreaterThanOrEqual(1);
    const heads = await t.ctx.db
      .selectFrom('auditSignedHeads')
      .selectAll()
      .where('organizationId', '=', admin.organizationId)
      .orderBy('seq')
      .execute();
    expect(heads.map((h) => h.reason)).toEqual(['manual', 'interval']);
    expect((await signAllChainHeads(t.ctx)).signed).toEqual([]);
    expect((await check(admin)).isValid).toBe(true);
  });
});
