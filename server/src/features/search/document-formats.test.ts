/**
 * Document search through the whole path, with files made here: each format is uploaded, read by the file-text job
 * (the real extractor, in its own process) and found by a word inside it; a hostile file is refused within its
 * limits while the app keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentSearchResponse, NodeTreeDto } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createMatter, newOrganization, ok, uploadFile, type Member } from '../../../test/factories.js';
import { docx, EML, longScan, scannedPdf, textPdf, textPng, zipBombDocx } from '../../platform/text-extraction/test-fixtures.js';
import { FILE_TEXT_JOB } from './document-text.jobs.js';

type Firm = { t: TestApp; admin: Member; matter: { id: string } };
let firm: Firm;
let hurried: Firm;

async function openFirm(env: Record<string, string>, name: string): Promise<Firm> {
  const t = await createTestApp({ JOB_RUNNER: 'off', ...env });
  const admin = await newOrganization(t, name);
  return { t, admin, matter: await createMatter(admin.client, { matterName: `${name} Matter` }) };
}

beforeAll(async () => {
  // Every format read within the installation's usual limit (OCR slows down a lot while the machine is busy), and
  // a second installation with a 10-second limit, so that the file that takes too long is cut off within the test.
  firm = await openFirm({}, 'Formats LLP');
  hurried = await openFirm({ TEXT_EXTRACTION_TIMEOUT_SECONDS: '10' }, 'Hurried LLP');
});
afterAll(async () => {
  await firm.t.shutdown();
  await hurried.t.shutdown();
});

const search = async ({ admin }: Firm, q: string) =>
  (ok(await admin.client.get(`/_api/search/documents?${new URLSearchParams({ q })}`)) as DocumentSearchResponse).hits;

async function states({ admin, matter }: Firm): Promise<Record<string, [string | null | undefined, string | null | undefined]>> {
  const body = ok(await admin.client.get(`/_api/matters/detail?matterId=${matter.id}`)) as { nodes: NodeTreeDto[] };
  return Object.fromEntries(body.nodes.map((n) => [n.name, [n.textState, n.textReason]]));
}

describe('document search over real formats', () => {
  it('reads a PDF text layer page by page, a scanned PDF and a PNG by OCR, a .docx and an .eml with its attachment', async () => {
    const files: Array<[string, string, Buffer]> = [
      [
        'Agreement.pdf',
        'application/pdf',
        await textPdf(['Cover page of the agreement', 'Recitals', 'The WARRANTOR gives the warranties.']),
      ],
      ['Scanned letter.pdf', 'application/pdf', await scannedPdf(['INDEMNITY NOTICE'])],
      ['Photo of note.png', 'image/png', await textPng('LIMITATION PERIOD')],
      [
        'Opinion.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        await docx(['Counsel considers the FORFEITURE clause void.']),
      ],
      ['Settlement.eml', 'message/rfc822', Buffer.from(EML)],
    ];
    const { t, admin, matter } = firm;
    for (const [name, type, bytes] of files) await uploadFile(t, admin.client, matter.id, name, bytes, null, type);
    await t.ctx.jobs.runDueJobs([FILE_TEXT_JOB]);
    const s = await states(firm);
    for (const [name] of files) expect(s[name], name).toEqual(['indexed', null]);

    const warrantor = await search(firm, 'warrantor');
    expect(warrantor.map((h) => [h.name, h.page])).toEqual([['Agreement.pdf', 3]]);
    expect(warrantor[0]!.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase())).toEqual(['warrantor']);
    expect((await search(firm, 'indemnity')).map((h) => h.name)).toEqual(['Scanned letter.pdf']);
    expect((await search(firm, 'limitation')).map((h) => h.name)).toEqual(['Photo of note.png']);
    expect((await search(firm, 'forfeiture')).map((h) => h.name)).toEqual(['Opinion.docx']);
    // An e-mail by its body, its headers and the names of its attachments.
    expect((await search(firm, 'estoppel')).map((h) => h.name)).toEqual(['Settlement.eml']);
    expect((await search(firm, '"Bob Client"')).map((h) => h.name)).toEqual(['Settlement.eml']);
    expect((await search(firm, 'brief')).map((h) => h.name)).toEqual(['Settlement.eml']);
  }, 240_000);

  it('refuses a zip bomb and a file that takes too long, with reasons, while the app keeps answering', async () => {
    const { t, admin, matter } = hurried;
    await uploadFile(
      t,
      admin.client,
      matter.id,
      'Bomb.docx',
      await zipBombDocx(),
      null,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    // Ten full scanned pages (some 2.5 s of OCR each) cannot be read within the 10 seconds this app allows.
    await uploadFile(t, admin.client, matter.id, 'Long scan.pdf', await longScan(10), null, 'application/pdf');
    const reading = t.ctx.jobs.runDueJobs([FILE_TEXT_JOB]);
    // The app answers while the texts are read.
    const answered: number[] = [];
    const started = Date.now();
    while (Date.now() - started < 3000) {
      const res = await admin.client.get('/_api/auth/session');
      answered.push(res.statusCode);
    }
    expect(answered.every((c) => c === 200)).toBe(true);
    await reading;
    const s = await states(hurried);
    expect(s['Bomb.docx']![0]).toBe('failed');
    expect(s['Bomb.docx']![1]).toMatch(/\S/);
    expect(s['Long scan.pdf']![0]).toBe('failed');
    expect(s['Long scan.pdf']![1]).toMatch(/10 seconds/);
    // Both are still found by name, and downloadable as stored.
    expect((await search(hurried, 'bomb')).map((h) => h.name)).toEqual(['Bomb.docx']);
  }, 180_000);
});
