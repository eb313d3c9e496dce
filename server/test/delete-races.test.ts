/**
 * Concurrent deletes of one folder: the subtree goes to the recycle bin once, and every other request is told the
 * folder is gone (404), never a 500 and never a second deletion. When the bin is emptied, one job deletes its
 * objects once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addMember, auditActions, createFolder, createMatter, newOrganization, uploadFile, type Member } from './factories.js';
import { DELETE_OBJECTS_JOB } from '../src/features/nodes/nodes.jobs.js';
import { runBinPurge } from '../src/features/nodes/bin-purge.jobs.js';
import { createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Member;
let partner: Member;
beforeAll(async () => {
  t = await createTestApp();
  admin = await newOrganization(t, 'Race & Delete LLP');
  partner = await addMember(t, admin.organizationId, 'admin');
});
afterAll(() => t.shutdown());

describe('the same folder deleted by several requests at once', () => {
  it('answers 200 once and 404 to the others; the rows, the audit entry and each object go once', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Correspondence');
    const inner = await createFolder(admin.client, m.id, 'Drafts', folder.id);
    const files = [];
    for (let i = 0; i < 5; i++)
      files.push(await uploadFile(t, admin.client, m.id, `Letter ${i}.pdf`, Buffer.from(`letter ${i}`), i < 3 ? folder.id : inner.id));
    const kept = await uploadFile(t, admin.client, m.id, 'Retainer.pdf', Buffer.from('retainer'));
    const jobsBefore = await t.ctx.jobs.pendingCount(DELETE_OBJECTS_JOB);

    const clients = Array.from({ length: 8 }, (_, i) => (i % 2 ? partner.client : admin.client));
    const answers = await Promise.all(clients.map((c) => c.post('/_api/nodes/delete', { nodeId: folder.id })));

    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    const winner = answers.find((a) => a.statusCode === 200)!;
    expect(winner.json()).toMatchObject({ success: true, deletedCount: 7 });
    for (const a of answers.filter((x) => x.statusCode === 404)) expect(a.json().error).toBe('Item not found.');

    const live = await t.ctx.db.selectFrom('nodes').select('id').where('matterId', '=', m.id).where('binEntryId', 'is', null).execute();
    expect(live.map((r) => r.id)).toEqual([kept.id]);
    const entries = await t.ctx.db.selectFrom('binEntries').select('id').where('matterId', '=', m.id).execute();
    expect(entries).toHaveLength(1);
    const audits = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'DELETE_NODE');
    expect(audits.map((e) => e.targetId)).toEqual([folder.id]);
    expect(await t.ctx.jobs.pendingCount(DELETE_OBJECTS_JOB)).toBe(jobsBefore);

    // The bin is emptied (its days over): the rows go, and one job deletes each object once.
    expect(await runBinPurge(t.ctx, new Date(Date.now() + 31 * 86_400_000))).toMatchObject({ entriesPurged: 1, nodesDeleted: 7 });
    const left = await t.ctx.db.selectFrom('nodes').select('id').where('matterId', '=', m.id).execute();
    expect(left.map((r) => r.id)).toEqual([kept.id]);
    expect(await t.ctx.jobs.pendingCount(DELETE_OBJECTS_JOB)).toBe(jobsBefore + 1);

    const deletes = vi.spyOn(t.ctx.store, 'delete');
    try {
      expect(await t.ctx.jobs.runDueJobs([DELETE_OBJECTS_JOB])).toEqual({ completed: 1, failed: 0 });
      expect(deletes.mock.calls.map(([key]) => key).sort()).toEqual(files.map((f) => f.storagePath).sort());
    } finally {
      deletes.mockRestore();
    }
    for (const f of files) expect(await t.ctx.store.head(f.storagePath)).toBeNull();
    expect(await t.ctx.store.head(kept.storagePath)).not.toBeNull();
  });
});
