/**
 * A file's text read while the file changes under it. The file-text job is held after it claimed the text and
 * before it reads the file (the failpoint search.text.before-read, released by the test); meanwhile the matter is
 * vaulted, or the file deleted to the recycle bin (and purged from it). Either way the run ends consistent: a
 * vaulted file's text is indexed once, where the vault keeps the file, and found only by those who may see vaulted
 * matters; a purged file leaves no text behind; nothing is left pending or recorded as failed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DocumentSearchResponse } from '@strongroom/contracts';
import { releaseFailpoints } from '../../platform/failpoints.js';
import { runBinPurge } from '../nodes/index.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  createMatter,
  newOrganizationWithTotp,
  ok,
  uploadFile,
  type Member,
  type TotpMember,
  freshTotp,
} from '../../../test/factories.js';
import { FILE_TEXT_JOB } from './document-text.jobs.js';

const HELD = 'search.text.before-read';

let t: TestApp;
let admin: TotpMember;
let reader: Member;
let warn: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  // Held until the test releases it; the pause's own length is never reached.
  t = await createTestApp({ JOB_RUNNER: 'off', FAILPOINTS: `${HELD}=pause(600000)` });
  admin = await newOrganizationWithTotp(t, 'Race Text LLP');
  reader = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false });
  warn = vi.spyOn(t.ctx.log, 'warn');
});
afterAll(async () => {
  releaseFailpoints(t.config.failpoints);
  await t.shutdown();
});

const found = async (m: Member, word: string) =>
  (ok(await m.client.get(`/_api/search/documents?q=${word}`)) as DocumentSearchResponse).hits.map((h) => h.nodeId);
const textsOf = (nodeId: string) =>
  t.ctx.db
    .selectFrom('fileTexts')
    .select(['state', 'body'])
    .where('organizationId', '=', admin.organizationId)
    .where('nodeId', '=', nodeId)
    .execute();
const statesLeft = async () =>
  (
    await t.ctx.db
      .selectFrom('fileTexts')
      .select('state')
      .where('organizationId', '=', admin.organizationId)
      .where('state', 'in', ['pending', 'failed'])
      .execute()
  ).map((r) => r.state);

/** Starts the file-text job and answers its run once it is held between the claim and the read. */
async function startHeldRead(): Promise<{ run: Promise<{ completed: number; failed: number }> }> {
  warn.mockClear();
  const run = t.ctx.jobs.runDueJobs([FILE_TEXT_JOB]);
  await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.objectContaining({ failpoint: HELD }), `failpoint ${HELD} reached`), {
    timeout: 30_000,
    interval: 20,
  });
  return { run };
}

/** Runs the file-text job to its end, every hold released as it comes. */
async function readTexts(): Promise<void> {
  const releasing = setInterval(() => releaseFailpoints(t.config.failpoints), 20);
  try {
    expect((await t.ctx.jobs.runDueJobs([FILE_TEXT_JOB])).failed).toBe(0);
  } finally {
    clearInterval(releasing);
  }
}

const totp = (m: TotpMember) => freshTotp(t, m);

describe('a file vaulted or deleted while its text is read', () => {
  it('vaulted: the text is indexed once, from the vault, found with canViewVaulted and not without', async () => {
    const m = await createMatter(admin.client, { matterName: 'Vaulted While Read' });
    const file = await uploadFile(
      t,
      admin.client,
      m.id,
      'Charter.txt',
      Buffer.from('The ancient sesquipedalian charter.'),
      null,
      'text/plain',
    );
    const { run } = await startHeldRead();

    ok(await admin.client.post('/_api/vault/start', { matterId: m.id, retentionYears: 7, mfaToken: await totp(admin) }));
    expect(await t.ctx.jobs.runDueJobs(['vault-transfer'])).toEqual({ completed: 1, failed: 0 });
    await t.ctx.jobs.runDueJobs(['delete-objects']);
    const vaulted = await t.ctx.db.selectFrom('nodeVersions').select('storagePath').where('nodeId', '=', file.id).executeTakeFirstOrThrow();
    // The working copy the job was about to read is gone: the file is in the vault now.
    expect(vaulted.storagePath).not.toBe(file.storagePath);
    expect(await t.ctx.store.head(file.storagePath)).toBeNull();

    releaseFailpoints(t.config.failpoints);
    expect((await run).failed).toBe(0);
    await readTexts();

    expect(await textsOf(file.id)).toEqual([{ state: 'indexed', body: 'The ancient sesquipedalian charter.' }]);
    expect(await statesLeft()).toEqual([]);
    expect(await found(admin, 'sesquipedalian')).toEqual([file.id]);
    expect(await found(reader, 'sesquipedalian')).toEqual([]);
    // The reader does search: the same word in an open matter is found.
    const open = await createMatter(admin.client, { matterName: 'Open Matter' });
    const other = await uploadFile(t, admin.client, open.id, 'Open.txt', Buffer.from('A sesquipedalian note.'), null, 'text/plain');
    await readTexts();
    expect(await found(reader, 'sesquipedalian')).toEqual([other.id]);
    expect((await found(admin, 'sesquipedalian')).sort()).toEqual([file.id, other.id].sort());
  });

  it('deleted to the recycle bin and purged: no text is written, nothing is left pending or failed', async () => {
    const m = await createMatter(admin.client, { matterName: 'Purged While Read' });
    const file = await uploadFile(t, admin.client, m.id, 'Shredded.txt', Buffer.from('A palimpsest to be shredded.'), null, 'text/plain');
    const kept = await uploadFile(t, admin.client, m.id, 'Binned.txt', Buffer.from('A binned palimpsest.'), null, 'text/plain');
    const { run } = await startHeldRead();

    const gone = ok(await admin.client.post('/_api/nodes/delete', { nodeId: file.id })) as { binEntryId: string };
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: kept.id }));
    // The first one's days in the bin are over: the purge deletes its rows.
    await t.ctx.db
      .updateTable('binEntries')
      .set({ purgeAfter: new Date(Date.now() - 1000) })
      .where('id', '=', gone.binEntryId)
      .execute();
    expect(await runBinPurge(t.ctx, new Date(), admin.organizationId)).toMatchObject({ entriesPurged: 1 });
    expect(await t.ctx.db.selectFrom('nodes').select('id').where('id', '=', file.id).execute()).toEqual([]);

    // Released; its later holds (the other text) are released as they come.
    releaseFailpoints(t.config.failpoints);
    const releasing = setInterval(() => releaseFailpoints(t.config.failpoints), 20);
    try {
      expect((await run).failed).toBe(0);
    } finally {
      clearInterval(releasing);
    }
    await readTexts();

    expect(await textsOf(file.id)).toEqual([]);
    expect(await statesLeft()).toEqual([]);
    // The file only in the bin keeps its text (restoring it brings it back to search) but is not found meanwhile.
    expect(await textsOf(kept.id)).toEqual([{ state: 'indexed', body: 'A binned palimpsest.' }]);
    expect(await found(admin, 'palimpsest')).toEqual([]);
  });
});
