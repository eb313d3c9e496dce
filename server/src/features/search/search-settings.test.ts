import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_SEARCH_MSG, type SearchSettingsResponse } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createMatter,
  newOrganization,
  ok,
  setMatterFlags,
  uploadFile,
  type Member,
} from '../../../test/factories.js';
import { claimPendingText, writeText } from './document-text.repository.js';
import { FILE_TEXT_JOB } from './document-text.jobs.js';

let t: TestApp;
let admin: Member;
let matter: { id: string };

const text = (s: string) => Buffer.from(s, 'utf8');
const settings = async (m: Member) => ok(await m.client.get('/_api/settings/search')) as SearchSettingsResponse;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  matter = await createMatter(admin.client, { matterName: 'Settings Matter' });
  await uploadFile(t, admin.client, matter.id, 'Running.txt', text('The runners were running a race.'), null, 'text/plain');
  await uploadFile(t, admin.client, matter.id, 'Other.txt', text('Nothing of note.'), null, 'text/plain');
  await t.ctx.jobs.runDueJobs([FILE_TEXT_JOB]);
});
afterAll(() => t.shutdown());

describe('search settings', () => {
  it('answers English by default, the choices and the files by text state', async () => {
    const s = await settings(admin);
    expect(s).toMatchObject({
      language: 'english',
      ocrLanguages: ['eng'],
      reindex: null,
      counts: { pending: 0, indexed: 2, no_text: 0, failed: 0 },
    });
    expect(s.languages.map((l) => l.config)).toContain('simple');
    expect(s.availableOcrLanguages.map((l) => l.code)).toContain('eng');
  });

  it('is for administrators only', async () => {
    const user = await addMember(t, admin.organizationId, 'user');
    expect((await user.client.get('/_api/settings/search')).statusCode).toBe(403);
    expect((await user.client.post('/_api/settings/search', { language: 'simple', ocrLanguages: ['eng'] })).statusCode).toBe(403);
    expect((await user.client.post('/_api/settings/search/reindex', {})).statusCode).toBe(403);
  });

  it('refuses a language or OCR language that is not offered', async () => {
    const bad = async (body: unknown) => {
      const res = await admin.client.post('/_api/settings/search', body);
      expect(res.statusCode).toBe(400);
      return (res.json() as { error: string }).error;
    };
    expect(await bad({ language: 'klingon', ocrLanguages: ['eng'] })).toBe(DOCUMENT_SEARCH_MSG.languageInvalid);
    expect(await bad({ language: "english'; drop table file_texts; --", ocrLanguages: ['eng'] })).toBe(DOCUMENT_SEARCH_MSG.languageInvalid);
    expect(await bad({ language: 'english', ocrLanguages: [] })).toBe(DOCUMENT_SEARCH_MSG.ocrLanguagesInvalid);
    expect(await bad({ language: 'english', ocrLanguages: ['xyz'] })).toBe(DOCUMENT_SEARCH_MSG.ocrLanguagesInvalid);
  });

  it('changes the language, audited; words are stemmed the new way once re-indexed, with progress', async () => {
    // English stems 'running' to 'run': 'run' finds it.
    const search = async (q: string) =>
      (ok(await admin.client.get(`/_api/search/documents?q=${q}`)) as { hits: Array<{ name: string }> }).hits.map((h) => h.name);
    expect(await search('run')).toEqual(['Running.txt']);
    const changed = ok(
      await admin.client.post('/_api/settings/search', { language: 'simple', ocrLanguages: ['eng'] }),
    ) as SearchSettingsResponse;
    expect(changed.language).toBe('simple');
    const entry = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'UPDATE_SEARCH_SETTINGS').at(-1)!;
    expect(entry.details).toMatchObject({ changed: ['language'], before: { language: 'english' }, after: { language: 'simple' } });

    const started = ok(await admin.client.post('/_api/settings/search/reindex', {}));
    expect(started).toMatchObject({ message: DOCUMENT_SEARCH_MSG.reindexStarted, reindex: { state: 'running', total: 2, done: 0 } });
    expect((await settings(admin)).counts.pending).toBe(2);
    // The old words stay searchable while the texts wait to be read again.
    expect(await search('run')).toEqual(['Running.txt']);
    const again = await admin.client.post('/_api/settings/search/reindex', {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(DOCUMENT_SEARCH_MSG.reindexRunning);

    await t.ctx.jobs.runDueJobs([FILE_TEXT_JOB]);
    const after = await settings(admin);
    expect(after.reindex).toMatchObject({ state: 'completed', total: 2, done: 2 });
    expect(after.counts).toMatchObject({ pending: 0, indexed: 2 });
    // 'simple' keeps words as written: 'run' no longer finds 'running', 'running' does.
    expect(await search('run')).toEqual([]);
    expect(await search('running')).toEqual(['Running.txt']);
    expect((await auditActions(t, admin.organizationId)).some((e) => e.action === 'SEARCH_REINDEX_STARTED')).toBe(true);
  });

  it('starts one re-index when two administrators ask at once', async () => {
    const second = await addMember(t, admin.organizationId, 'admin');
    const answers = await Promise.all([admin, second, admin, second].map((m) => m.client.post('/_api/settings/search/reindex', {})));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    await t.ctx.jobs.runDueJobs([FILE_TEXT_JOB]);
  });
});

describe('the text follows the file', () => {
  it('keeps a vaulted file’s text searchable, and deletes it when the vault destroys the file at retention end', async () => {
    const vaultMatter = await createMatter(admin.client, { matterName: 'Vault Text Matter' });
    const file = await uploadFile(t, admin.client, vaultMatter.id, 'Old deed.txt', text('A palimpsest of covenants.'), null, 'text/plain');
    await t.ctx.jobs.runDueJobs([FILE_TEXT_JOB]);
    await setMatterFlags(t, vaultMatter.id, { vaulted: true });
    const found = async () =>
      (ok(await admin.client.get('/_api/search/documents?q=palimpsest')) as { hits: Array<{ nodeId: string }> }).hits.map((h) => h.nodeId);
    expect(await found()).toEqual([file.id]);
    const object = await t.ctx.db
      .insertInto('vaultObjects')
      .values({
        organizationId: admin.organizationId,
        matterId: vaultMatter.id,
        nodeId: file.id,
        versionNumber: 1,
        path: '/Old deed.txt',
        objectKey: `vault/${admin.organizationId}/${vaultMatter.id}/deed`,
        sha256: 'a'.repeat(64),
        size: 26,
        retainUntil: new Date(),
        legalHold: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await found()).toEqual([file.id]);
    await t.ctx.db.updateTable('vaultObjects').set({ state: 'destroyed', destroyedAt: new Date() }).where('id', '=', object.id).execute();
    expect(await found()).toEqual([]);
    expect(await t.ctx.db.selectFrom('fileTexts').select('state').where('nodeId', '=', file.id).execute()).toEqual([]);
  });
});

describe('reading texts: claims and races', () => {
  it('writes a text once: a second job cannot claim it, and a text whose file was deleted meanwhile is not written', async () => {
    const file = await uploadFile(t, admin.client, matter.id, 'Raced.txt', text('A raced text.'), null, 'text/plain');
    const version = await t.ctx.db.selectFrom('nodeVersions').select('id').where('nodeId', '=', file.id).executeTakeFirstOrThrow();
    const first = await claimPendingText(t.ctx.db, 'job-a', 600, version.id);
    expect(first?.versionId).toBe(version.id);
    // Another job finds it taken; the same job (retried after a crash) takes it back.
    expect(await claimPendingText(t.ctx.db, 'job-b', 600, version.id)).toBeNull();
    expect((await claimPendingText(t.ctx.db, 'job-a', 600, version.id))?.attempts).toBe(2);
    const outcome = { state: 'indexed' as const, reason: null, body: 'A raced text.', ocr: false, truncated: false };
    expect(await writeText(t.ctx.db, 'job-b', version.id, outcome)).toBe(false);
    // The file deleted for good (the recycle bin's purge deletes its rows) while its text was being read.
    await t.ctx.db.deleteFrom('nodes').where('id', '=', file.id).execute();
    expect(await writeText(t.ctx.db, 'job-a', version.id, outcome)).toBe(false);
    expect(await t.ctx.db.selectFrom('fileTexts').select('state').where('versionId', '=', version.id).executeTakeFirst()).toBeUndefined();
  });
});
