// Reading file texts for document search: the file-text job's loop (claim, read the stored object, extract in the
// extractor's process, write the text and its words) against the extractor alone on the same files, in one process.
import { Readable } from 'node:stream';
import { api, passMfaWall } from '../lib/api-client.js';
import { envInt, fmt, median } from '../lib/stats.js';
import { startStrongroom } from '../lib/strongroom.js';
import type { Scenario } from '../lib/types.js';
import { readPendingTexts } from '../../server/src/features/search/index.js';
import { TextExtractor } from '../../server/src/platform/text-extraction/index.js';
import { docx, EML, textPdf, textPng } from '../../server/src/platform/text-extraction/test-fixtures.js';

type File = { name: string; type: string; bytes: Buffer };

const WORDS = 'the parties agree that the indemnity in clause fourteen covers every loss arising from the warranties given'.split(' ');
const paragraph = (i: number) => Array.from({ length: 120 }, (_, k) => WORDS[(i * 7 + k) % WORDS.length]).join(' ');

/** Born-digital files (PDFs of ten pages, Word documents, e-mails, plain text) and scanned images (OCR). */
async function files(count: number, images: number): Promise<{ digital: File[]; scanned: File[] }> {
  const digital: File[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 4;
    if (kind === 0)
      digital.push({
        name: `Agreement ${i}.pdf`,
        type: 'application/pdf',
        bytes: await textPdf(Array.from({ length: 10 }, (_, p) => paragraph(i + p))),
      });
    else if (kind === 1)
      digital.push({
        name: `Opinion ${i}.docx`,
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        bytes: await docx(Array.from({ length: 20 }, (_, p) => paragraph(i + p))),
      });
    else if (kind === 2) digital.push({ name: `Mail ${i}.eml`, type: 'message/rfc822', bytes: Buffer.from(EML) });
    else
      digital.push({
        name: `Note ${i}.txt`,
        type: 'text/plain',
        bytes: Buffer.from(Array.from({ length: 20 }, (_, p) => paragraph(i + p)).join('\n')),
      });
  }
  const scanned: File[] = [];
  for (let i = 0; i < images; i++)
    scanned.push({ name: `Scan ${i}.png`, type: 'image/png', bytes: await textPng(`NOTICE ${i} OF ESTOPPEL`) });
  return { digital, scanned };
}

async function extractAll(extractor: TextExtractor, list: File[]): Promise<number> {
  const t = performance.now();
  for (const f of list) {
    const r = await extractor.extract({
      read: () => Readable.from([f.bytes]),
      size: f.bytes.length,
      fileName: f.name,
      mimeType: f.type,
      ocrLanguages: ['eng'],
    });
    if (r.state !== 'indexed') throw new Error(`${f.name}: ${r.state}`);
  }
  return (performance.now() - t) / 1000;
}

export const scenario: Scenario = {
  name: 'text-extraction',
  title: 'Reading file texts: the background job against the extractor alone',
  order: 46,
  description:
    "The file-text job's loop over BENCH_TEXT_FILES stored files (PDFs of ten pages, Word documents, e-mails, plain text) and BENCH_TEXT_IMAGES scanned images, " +
    'against the extractor reading the same bytes from memory, in the same process, each warmed first; three rounds each, medians.',
  async run({ log }) {
    const count = envInt('BENCH_TEXT_FILES', 200, 8, 5000);
    const images = envInt('BENCH_TEXT_IMAGES', 10, 1, 200);
    const sr = await startStrongroom({ env: { JOB_RUNNER: 'off' } });
    const extractor = new TextExtractor();
    try {
      await passMfaWall(sr);
      const ctx = sr.built.ctx;
      const { digital, scanned } = await files(count, images);
      const matter = await api<{ matter: { id: string } }>(sr, 'POST', '/_api/matters/create', {
        matterName: 'Text bench',
        clientName: 'Bench',
        responsibleAttorney: 'Bench Admin',
      });
      const upload = async (f: File) => {
        const meta = { fileName: f.name, fileType: f.type, matterId: matter.matter.id, parentId: null, fileSize: f.bytes.length };
        const signed = await api<{ url: string; headers: Record<string, string>; s3Key: string }>(
          sr,
          'POST',
          '/_api/upload/presigned',
          meta,
        );
        const signedUrl = new URL(signed.url, sr.url);
        // The app's address in the signed URL has no port here: the same path on the bench's address.
        const put = await fetch(sr.url + signedUrl.pathname + signedUrl.search, {
          method: 'PUT',
          headers: signed.headers,
          body: new Uint8Array(f.bytes),
        });
        if (!put.ok) throw new Error(`PUT ${put.status}`);
        await api(sr, 'POST', '/_api/upload/multipart-complete', { s3Key: signed.s3Key, ...meta });
      };
      // Both sides warm: the job's extractor process and the bench's own read one file first.
      await upload({ ...digital[0]!, name: 'Warm-up.pdf' });
      await readPendingTexts(ctx, 'bench-warm', () => {});
      await extractAll(extractor, [digital[0]!]);
      for (const f of [...digital, ...scanned]) await upload(f);
      log(`${digital.length + scanned.length} files stored`);

      const requeue = (names: File[]) =>
        ctx.db
          .updateTable('fileTexts')
          .set({ state: 'pending', claimJob: null, claimedUntil: null, attempts: 0 })
          .where(
            'nodeId',
            'in',
            ctx.db
              .selectFrom('nodes')
              .select('id')
              .where(
                'name',
                'in',
                names.map((f) => f.name),
              ),
          )
          .execute();
      const measure = async (label: string, list: File[]) => {
        const job: number[] = [];
        const alone: number[] = [];
        for (let round = 0; round < 3; round++) {
          await requeue(list);
          const t = performance.now();
          const read = await readPendingTexts(ctx, `bench-${label}-${round}`, () => {});
          job.push((performance.now() - t) / 1000);
          if (read !== list.length) throw new Error(`${label}: the job read ${read} of ${list.length}`);
          alone.push(await extractAll(extractor, list));
        }
        const ratio = median(alone) / median(job);
        log(`${label}: job ${fmt(median(job), 2)} s, extractor alone ${fmt(median(alone), 2)} s, ratio ${fmt(ratio, 2)}`);
        return { label, files: list.length, job: median(job), alone: median(alone), ratio };
      };
      // The texts stored above are set aside; each group is then sent back to be read on its own.
      await ctx.db.updateTable('fileTexts').set({ state: 'indexed' }).where('state', '=', 'pending').execute();
      const rows = [await measure('born-digital', digital), await measure('scanned images (OCR)', scanned)];
      const worst = rows.reduce((a, b) => (b.ratio < a.ratio ? b : a));
      return {
        headline: `job vs extractor alone: ${rows.map((r) => `${r.label} ${fmt(r.ratio, 2)}`).join(', ')} (target 0.8)`,
        summary: [
          `- **Ratio of the job's time to the extractor's alone, same files, same process: ${rows.map((r) => `${r.label} ${fmt(r.ratio, 2)}`).join('; ')}.** Target at least 0.8: ${worst.ratio >= 0.8 ? 'met' : `missed (${worst.label})`}.`,
          `- The job's loop claims each pending text, streams the stored object from the local store into the extractor's process, and writes the text with its words (tsvector of the name and the text) under its claim, on PGlite in this process.`,
        ],
        tables: [
          {
            caption: 'Seconds for all files of a group (median of 3 rounds), and files per second',
            columns: ['files', 'count', 'job s', 'alone s', 'job files/s', 'alone files/s', 'ratio'],
            rows: rows.map((r) => [
              r.label,
              r.files,
              fmt(r.job, 2),
              fmt(r.alone, 2),
              fmt(r.files / r.job, 1),
              fmt(r.files / r.alone, 1),
              fmt(r.ratio, 2),
            ]),
          },
        ],
        notes: [
          '- Born-digital: a quarter each of PDFs of ten pages of about 800 words, Word documents of twenty paragraphs, a small e-mail with an attachment and plain text of twenty paragraphs. Scanned: one-line PNG images of 1,400 × 300 pixels (OCR in English).',
          '- The extractor runs in its own child process in both cases (one warm process each); the bench reads the bytes from memory, the job from the store.',
        ],
      };
    } finally {
      await extractor.close();
      await sr.close();
    }
  },
};
