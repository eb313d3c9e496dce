/**
 * The chain-of-custody report of a really vaulted matter (the transfer job run, the certificate signed), as a
 * reviewer downloads it: the HTML reads as a document (title block, dates in words with their time zone, the
 * audit trail in sentences, no raw JSON of audit details, the signature block with the key fingerprint, the
 * verify commands, print styles), and the PDF (format=pdf) holds each file's SHA-256 as the certificate states
 * it and the fingerprint, audited like the HTML export. The PDF's text is read with a small parser here (inflate
 * each content stream, decode the text-showing operators), so no system tool is needed.
 */
import { randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedCertificate } from '@strongroom/contracts';
import { currentTotp } from '../mfa/index.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  auditActions,
  createFolder,
  createMatter,
  newOrganizationWithTotp,
  ok,
  uploadFile,
  type TotpMember,
} from '../../../test/factories.js';
import { VAULT_TRANSFER_JOB } from './vault-transfer.jobs.js';
import { auditSentence, dateInWords, groupedInFours } from './vault-report-words.js';

/** Windows-1252 bytes above 0x7f that the report prints (curly quotes, dashes, the middle dot). */
const WIN_ANSI: Record<number, string> = { 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x96: '–', 0x97: '—', 0x85: '…', 0xb7: '·' };

/** The text a PDF shows, one string per text-showing operator, from its (Flate-compressed or plain) content streams. */
function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  const streams = /<<([^]*?)>>\s*stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streams.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = (/\/FlateDecode/.test(m[1]!) ? inflateSync(bytes) : bytes).toString('latin1');
    } catch {
      continue;
    }
    // [<hex> kerning <hex> ...] TJ and <hex> Tj, as pdfkit writes text in the standard fonts.
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const parts = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((p) => p[1]!) : [op[2]!];
      out.push(
        parts
          .map((hex) =>
            Buffer.from(hex, 'hex')
              .toString('latin1')
              .replace(/[\x80-\x9f\xb7]/g, (c) => WIN_ANSI[c.charCodeAt(0)] ?? c),
          )
          .join(''),
      );
    }
  }
  return out.join('\n');
}

let t: TestApp;
let admin: TotpMember;
let matter: { id: string; matterNumber: string };
let cert: SignedCertificate;
const contents = [randomBytes(20_000), Buffer.from('engagement letter'), randomBytes(3)];

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off', APP_URL: 'https://vault.firm.test' });
  admin = await newOrganizationWithTotp(t, 'Hale & Partners LLP');
  matter = await createMatter(admin.client, {
    matterName: 'Estate of Ivor Quill',
    clientName: 'Quill Family Trust',
    matterNumber: 'MAT-2026-417',
    description: 'Probate of the estate; the will and the engagement letter.',
    responsibleAttorney: 'Nora North',
  });
  const folder = await createFolder(admin.client, matter.id, 'Correspondence');
  await uploadFile(t, admin.client, matter.id, 'will-COMPLIANCE-final.pdf', contents[0]!, folder.id);
  await uploadFile(t, admin.client, matter.id, 'engagement.txt', contents[1]!, null, 'text/plain');
  await uploadFile(t, admin.client, matter.id, 'tiny.csv', contents[2]!, null, 'text/csv');
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
  ok(
    await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 7, mfaToken: await currentTotp(admin.totpSecret) }),
  );
  expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 1, failed: 0 });
  const res = await admin.client.get(`/_api/vault/certificate?matterId=${matter.id}`);
  expect(res.statusCode).toBe(200);
  cert = JSON.parse(res.body) as SignedCertificate;
});
afterAll(() => t.shutdown());

describe('dates, fingerprints and sentences', () => {
  it('writes dates in words with their time zone and fingerprints in groups of four', () => {
    expect(dateInWords(new Date('2026-11-26T14:05:09.123Z'))).toBe('26 November 2026, 14:05 UTC');
    expect(dateInWords(new Date('2027-01-03T04:00:00Z'))).toBe('3 January 2027, 04:00 UTC');
    expect(groupedInFours('0123456789abcdef01')).toBe('0123 4567 89ab cdef 01');
  });

  it('has a sentence per action kind and a generic one for an action it does not know', () => {
    const row = (action: string, details: Record<string, unknown>) => ({
      id: '1',
      action,
      actorName: 'Ada Admin',
      actorEmail: 'ada@firm.test',
      createdAt: new Date('2026-11-26T14:05:00Z'),
      details,
    });
    expect(
      auditSentence(row('VAULT_MATTER', { vaultedAt: '2026-11-26T14:05:00.000Z', retentionExpiresAt: '2033-11-26T14:05:00.000Z' })).text,
    ).toBe(
      'Ada Admin vaulted the matter on 26 November 2026, 14:05 UTC, to be retained until 26 November 2033, 14:05 UTC, and a legal hold was applied.',
    );
    expect(auditSentence(row('RENAME_NODE', { nodeType: 'file', from: 'a.pdf', to: 'b.pdf' })).text).toBe(
      'Ada Admin renamed the file “a.pdf” to “b.pdf”.',
    );
    expect(auditSentence(row('APPLY_LEGAL_HOLD', { reason: 'Litigation expected' })).text).toBe(
      'Ada Admin placed the matter under legal hold, giving the reason “Litigation expected”.',
    );
    expect(auditSentence({ ...row('VAULT_TRANSFER_COMPLETED', { files: 1, bytes: 2048 }), actorName: null, actorEmail: null }).text).toBe(
      'Strongroom completed the transfer: 1 file (2.00 KiB (2,048 bytes)) are in the vault, each read back and its SHA-256 checked.',
    );
    expect(auditSentence(row('SOMETHING_NEW', { secret: 'x' })).text).toBe('Ada Admin recorded the action “something new” on this matter.');
  });
});

describe('GET /_api/vault/report of a vaulted matter', () => {
  it('reads as a document: title block, dates in words, sentences, signature with the fingerprint, how to verify, print styles', async () => {
    const r = await admin.client.get(`/_api/vault/report?matterId=${matter.id}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-disposition']).toBe('attachment; filename="strongroom_vault_report_MAT-2026-417.html"');
    const html = r.body;
    // The title block.
    expect(html).toMatch(/<header class="title-block"><p class="firm">Hale &amp; Partners LLP<\/p><h1>Chain-of-Custody Report<\/h1>/);
    expect(html).toContain('<dt>Matter</dt><dd>Estate of Ivor Quill</dd>');
    expect(html).toContain('<dt>Matter number</dt><dd>MAT-2026-417</dd>');
    expect(html).toContain('<dt>Client</dt><dd>Quill Family Trust</dd>');
    // Dates in words with their time zone, never ISO timestamps outside the certificate appendix.
    const vaultedAt = new Date(cert.payload.matter.vaultedAt!);
    expect(html).toContain(`Ada Admin vaulted the matter on ${dateInWords(vaultedAt)}`);
    const body = html.slice(0, html.indexOf('<h2>Appendix'));
    expect(body).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    // The audit trail in sentences, oldest first, with no raw JSON of the entries' details.
    expect(body).toContain('Ada Admin opened the matter “Estate of Ivor Quill” as MAT-2026-417.');
    expect(body).toContain('Ada Admin uploaded the file “will-COMPLIANCE-final.pdf”');
    expect(body).toContain('Strongroom completed the transfer: 3 files');
    expect(body.indexOf('opened the matter')).toBeLessThan(body.indexOf('vaulted the matter'));
    expect(body).not.toMatch(/\{&quot;|\{"/);
    expect(body).not.toContain('VAULT_TRANSFER_COMPLETED');
    // Each file with its certified lock in words and its SHA-256 in a hash block.
    for (const f of cert.payload.files) {
      expect(body).toContain(`<dd class="hash">${f.sha256}</dd>`);
      expect(f.lockMode).toBe('COMPLIANCE');
    }
    expect(body).toContain(`Compliance lock until ${dateInWords(new Date(cert.payload.files[0]!.retainUntil!))}; legal hold on`);
    // The signature block: key id, and the fingerprint (the sha256 of the key's SPKI DER) grouped in fours.
    expect(body).toContain(`<td class="hash">${cert.keyId}</td>`);
    expect(body).toContain(`<td class="hash fingerprint">${groupedInFours(cert.keyId)}</td>`);
    expect(body).not.toContain('The key id is not the fingerprint');
    // How to verify, with the exact commands.
    expect(body).toContain('<h2>How to verify this report</h2>');
    expect(body).toContain(`npm run verify-certificate -- certificate.json --fingerprint ${cert.keyId} --files &lt;folder&gt;`);
    expect(body).toContain(
      'npm run verify-certificate -- certificate.json --keys-url https://vault.firm.test/.well-known/strongroom-signing-keys --files &lt;folder&gt;',
    );
    // The store's protection as the certificate states it.
    expect(body).toContain(cert.payload.storeProtection!.statement);
    // Print: page margins, page numbers in the footer, words kept whole, only hashes broken anywhere.
    expect(html).toMatch(/@page \{[^}]*margin:/);
    expect(html).toContain('content: "Page " counter(page) " of " counter(pages)');
    expect(html).not.toContain('word-break: break-all');
    expect([...html.matchAll(/([.\w -]+)\{[^}]*overflow-wrap: anywhere/g)].map((x) => x[1]!.trim())).toEqual(['.hash', 'pre']);
    // The certificate, verbatim, in the appendix.
    expect(html).toContain('<pre id="certificate">');
  });

  it('downloads the same report as PDF: each file’s SHA-256 as certified and the fingerprint, audited like the HTML', async () => {
    const before = (await auditActions(t, admin.organizationId)).length;
    const r = await admin.client.get(`/_api/vault/report?matterId=${matter.id}&format=pdf`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toBe('attachment; filename="strongroom_vault_report_MAT-2026-417.pdf"');
    const pdf = r.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Chain-of-Custody Report');
    expect(text).toContain('HALE & PARTNERS LLP');
    expect(text).toContain('Estate of Ivor Quill');
    for (const f of cert.payload.files) expect(text).toContain(f.sha256);
    expect(text).toContain(cert.keyId);
    expect(text).toContain(groupedInFours(cert.keyId));
    // A long command wraps at its spaces: the lines joined again give it whole.
    expect(text.replace(/\s+/g, ' ')).toContain(
      `npm run verify-certificate -- certificate.json --fingerprint ${cert.keyId} --files <folder>`,
    );
    expect(text).toMatch(/Page 1 of \d+/);
    expect(text).toContain(`Ada Admin vaulted the matter on ${dateInWords(new Date(cert.payload.matter.vaultedAt!))}`);

    const audit = await auditActions(t, admin.organizationId);
    expect(audit).toHaveLength(before + 1);
    expect(audit.at(-1)).toMatchObject({
      action: 'VAULT_REPORT_EXPORTED',
      targetId: matter.id,
      details: { matterId: matter.id, format: 'pdf', files: 3 },
    });
  });

  it('keeps the existing call working and refuses an unknown format with a 400', async () => {
    expect((await admin.client.get(`/_api/vault/report?matterId=${matter.id}&format=html`)).headers['content-type']).toBe(
      'text/html; charset=utf-8',
    );
    const bad = await admin.client.get(`/_api/vault/report?matterId=${matter.id}&format=docx`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('format must be html or pdf.');
  });
});
