/**
 * The chain-of-custody report as a PDF (A4), laid out from the same model as the HTML (vault-report.ts), so both
 * say the same: the title block, the matter, the transfer, every file with the SHA-256 the signed certificate
 * states, the verification, the audit trail in sentences, the signature block, how to verify, the certificates of
 * destruction and the signed certificates verbatim. Every page carries the report's footer and 'Page n of m'.
 *
 * The standard PDF fonts (Helvetica, Courier) are used, so the file needs no font of the server's; they cover
 * Western European text (Windows-1252), and any other character is printed as '?'. The HTML report and the
 * signed JSON keep every character.
 */
import PDFDocument from 'pdfkit';
import { reportModel, type ReportModel, type VaultReportInput } from './vault-report.js';

const SANS = 'Helvetica';
const SANS_BOLD = 'Helvetica-Bold';
const SERIF = 'Times-Roman';
const MONO = 'Courier';
const INK = '#111111';
const MUTED = '#444444';
const RULE = '#999999';
const WARN = '#990000';

/** The characters of Windows-1252 beyond Latin-1 that the standard fonts can print. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can print: any character outside Windows-1252 becomes '?'. */
function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out += ch === '\n' || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch) ? ch : '?';
  }
  return out;
}

type Doc = InstanceType<typeof PDFDocument>;

class Layout {
  readonly left: number;
  readonly width: number;

  constructor(readonly doc: Doc) {
    this.left = doc.page.margins.left;
    this.width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  keep(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  heightOf(text: string, font: string, size: number, width: number): number {
    return this.doc.font(font).fontSize(size).heightOfString(printable(text), { width });
  }

  write(text: string, opts: { font?: string; size?: number; color?: string; x?: number; width?: number; gap?: number } = {}): void {
    const { font = SERIF, size = 10, color = INK, x = this.left, width = this.width - (x - this.left), gap = 0.25 } = opts;
    this.keep(Math.min(this.heightOf(text, font, size, width), 40));
    this.doc.font(font).fontSize(size).fillColor(color).text(printable(text), x, this.doc.y, { width });
    this.doc.moveDown(gap);
  }

  heading(text: string): void {
    this.doc.moveDown(0.6);
    this.keep(60);
    this.doc.font(SANS_BOLD).fontSize(12.5).fillColor(INK).text(printable(text), this.left, this.doc.y, { width: this.width });
    const y = this.doc.y + 2;
    this.doc
      .moveTo(this.left, y)
      .lineTo(this.left + this.width, y)
      .lineWidth(0.6)
      .strokeColor(RULE)
      .stroke();
    this.doc.y = y + 6;
  }

  /**
   * Label and value side by side; `mono` values (hashes, keys, fingerprints) in Courier on a line of their own
   * under the label, where a whole SHA-256 fits without a break.
   */
  facts(rows: Array<[string, string]>, mono: string[] = []): void {
    const labelWidth = 150;
    const valueX = this.left + labelWidth + 10;
    const valueWidth = this.width - labelWidth - 10;
    for (const [label, value] of rows) {
      if (mono.includes(label)) {
        const x = this.left + 12;
        const h = this.heightOf(label, SANS_BOLD, 9, this.width) + this.heightOf(value, MONO, 8.5, this.width - 12) + 2;
        this.keep(h + 4);
        const y = this.doc.y;
        this.doc.font(SANS_BOLD).fontSize(9).fillColor(MUTED).text(printable(label), this.left, y, { width: this.width });
        this.doc
          .font(MONO)
          .fontSize(8.5)
          .fillColor(INK)
          .text(printable(value), x, this.doc.y + 1, { width: this.width - 12 });
        this.doc.y = y + h + 4;
        continue;
      }
      const h = Math.max(this.heightOf(label, SANS_BOLD, 9, labelWidth), this.heightOf(value, SERIF, 10, valueWidth));
      this.keep(h + 4);
      const y = this.doc.y;
      this.doc
        .font(SANS_BOLD)
        .fontSize(9)
        .fillColor(MUTED)
        .text(printable(label), this.left, y + 1, { width: labelWidth });
      this.doc.font(SERIF).fontSize(10).fillColor(INK).text(printable(value), valueX, y, { width: valueWidth });
      this.doc.y = y + h + 4;
    }
  }
}

function titleBlock(l: Layout, m: ReportModel): void {
  const { doc } = l;
  doc
    .moveTo(l.left, doc.y)
    .lineTo(l.left + l.width, doc.y)
    .lineWidth(2)
    .strokeColor(INK)
    .stroke();
  doc.moveDown(0.5);
  l.write(m.firm.toUpperCase(), { font: SANS_BOLD, size: 10.5, gap: 0.1 });
  l.write(m.title, { font: SANS_BOLD, size: 20, gap: 0.4 });
  l.facts([
    ['Matter', m.matterName],
    ['Matter number', m.matterNumber],
    ['Client', m.client],
  ]);
  l.write(m.generated, { font: SANS, size: 8.5, color: MUTED, gap: 0.2 });
  doc
    .moveTo(l.left, doc.y)
    .lineTo(l.left + l.width, doc.y)
    .lineWidth(0.8)
    .strokeColor(INK)
    .stroke();
  doc.moveDown(0.6);
}

function protection(l: Layout, p: ReportModel['protection']): void {
  if (!p) return;
  if (p.writeOnce) {
    l.write(p.statement, { size: 10 });
    return;
  }
  const text = `Warning. ${p.statement}`;
  const h = l.heightOf(text, SANS_BOLD, 10, l.width - 16) + 12;
  l.keep(h);
  const y = l.doc.y;
  l.doc.rect(l.left, y, l.width, h).lineWidth(1.5).strokeColor(WARN).stroke();
  l.doc
    .font(SANS_BOLD)
    .fontSize(10)
    .fillColor(WARN)
    .text(printable(text), l.left + 8, y + 6, { width: l.width - 16 });
  l.doc.y = y + h + 6;
}

function files(l: Layout, m: ReportModel): void {
  l.heading(m.filesHeading);
  l.write(
    "Each file's lock is the one the object store answered when asked after the copy, as the signed vault certificate states it. Its SHA-256 is the certificate's.",
    { size: 9.5 },
  );
  if (m.files.length === 0) {
    l.write('No file is in the vault.', { size: 10, color: MUTED });
    return;
  }
  const indent = l.left + 22;
  const inner = l.width - 22;
  for (const f of m.files) {
    const lines: Array<[string, string]> = [
      ['SHA-256', f.sha256],
      ['Object key', f.objectKey],
      ['Version', f.versionId ?? 'None (the store keeps no versions)'],
    ];
    const needed =
      l.heightOf(f.path, SANS_BOLD, 10, inner) +
      l.heightOf(`${f.size}. ${f.lock}. ${f.status}.`, SERIF, 9.5, inner) +
      lines.reduce((h, [, v]) => h + l.heightOf(v, MONO, 8, inner - 62), 0) +
      16;
    l.keep(needed);
    const y = l.doc.y;
    l.doc.font(SANS_BOLD).fontSize(10).fillColor(INK).text(`${f.number}.`, l.left, y, { width: 20 });
    l.doc.text(printable(f.path), indent, y, { width: inner });
    l.doc
      .font(SERIF)
      .fontSize(9.5)
      .text(printable(`${f.size}. ${f.lock}. ${f.status}.`), indent, l.doc.y, { width: inner });
    for (const [label, value] of lines) {
      const ly = l.doc.y + 1;
      l.doc
        .font(SANS_BOLD)
        .fontSize(7.5)
        .fillColor(MUTED)
        .text(label, indent, ly + 0.5, { width: 60 });
      l.doc
        .font(MONO)
        .fontSize(8)
        .fillColor(INK)
        .text(printable(value), indent + 62, ly, { width: inner - 62 });
    }
    l.doc.moveDown(0.6);
  }
}

function auditTrail(l: Layout, m: ReportModel): void {
  l.heading('Audit trail');
  if (m.audit.length === 0) {
    l.write('No audit entry names this matter.', { color: MUTED });
    return;
  }
  l.write(`${m.audit.length} ${m.audit.length === 1 ? 'entry' : 'entries'} from the organization's hash-chained audit log, oldest first.`, {
    size: 9.5,
  });
  const dateWidth = 118;
  const textX = l.left + dateWidth + 8;
  const textWidth = l.width - dateWidth - 8;
  for (const s of m.audit) {
    const h = l.heightOf(s.text, SERIF, 9.5, textWidth) + (s.hash ? l.heightOf(s.hash, MONO, 7.5, textWidth) + 2 : 0);
    l.keep(h + 5);
    const y = l.doc.y;
    l.doc
      .font(SANS)
      .fontSize(8)
      .fillColor(MUTED)
      .text(printable(s.at), l.left, y + 1, { width: dateWidth });
    l.doc.font(SERIF).fontSize(9.5).fillColor(INK).text(printable(s.text), textX, y, { width: textWidth });
    if (s.hash)
      l.doc
        .font(MONO)
        .fontSize(7.5)
        .text(printable(s.hash), textX, l.doc.y + 1, { width: textWidth });
    l.doc.y = y + h + 5;
  }
}

function signature(l: Layout, m: ReportModel): void {
  l.heading('Signature');
  const sig = m.signature;
  if (!sig) {
    l.write('The vault certificate is written when the transfer completes.', { color: MUTED });
    return;
  }
  l.write(
    `The vault certificate of this matter was signed with the Ed25519 key of this Strongroom installation. Compare the fingerprint below with the one the firm publishes (in Strongroom's Settings, and at ${m.keysUrl}).`,
    { size: 9.5 },
  );
  const mono = [
    'Key id',
    'Key fingerprint (SHA-256 of the public key)',
    'SHA-256 of the stored certificate',
    'Stored in the vault at',
    'Audit chain head quoted',
  ];
  l.facts(
    [
      ['Certificate issued', sig.issued],
      ['Algorithm', 'Ed25519'],
      ['Key id', sig.keyId],
      ['Key fingerprint (SHA-256 of the public key)', sig.fingerprint],
      ['SHA-256 of the stored certificate', sig.certificateSha256],
      ['Stored in the vault at', sig.storedAt],
      ['Audit chain head quoted', sig.chainHead ?? 'None'],
    ],
    mono,
  );
  if (!sig.keyIdMatches)
    l.write('The key id is not the fingerprint of the public key in the certificate.', { font: SANS_BOLD, color: WARN });
}

function howToVerify(l: Layout, m: ReportModel): void {
  l.heading('How to verify this report');
  const steps = [
    'Save the signed certificate exactly as Strongroom gives it (Export Report, Signed certificate (JSON)) as certificate.json, or copy the text of the appendix into that file without changing a character.',
    'Put copies of the files in one folder, each at its path as listed above (the folder is <folder> below).',
    "In a copy of the Strongroom source, run either command. The first pins the key by the fingerprint printed above; the second fetches the firm's published signing keys.",
  ];
  steps.forEach((s, i) => l.write(`${i + 1}. ${s}`, { gap: 0.2 }));
  for (const c of m.verifyCommands) {
    l.doc.moveDown(0.2);
    l.write(c, { font: MONO, size: 8.5, x: l.left + 18 });
  }
  l.doc.moveDown(0.3);
  l.write(
    'The check needs no server, database or network (except the second command\'s key fetch). It ends with "OK: the signature holds and every file matches." when the certificate is byte for byte what was signed, the key is the firm\'s, and every file has the size and SHA-256 listed here; it names every difference otherwise.',
    { size: 9.5 },
  );
}

/** The report as PDF bytes. */
export function renderVaultReportPdf(input: VaultReportInput): Promise<Buffer> {
  const m = reportModel(input);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 54, bottom: 62, left: 56, right: 56 },
    bufferPages: true,
    lang: 'en-GB',
    displayTitle: true,
    info: {
      Title: printable(`${m.title}: ${m.matterName}`),
      Author: printable(m.firm),
      Subject: printable(`Matter ${m.matterNumber}, client ${m.client}`),
      Creator: 'Strongroom',
      CreationDate: input.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const l = new Layout(doc);

  titleBlock(l, m);
  protection(l, m.protection);
  l.heading('The matter');
  l.facts(m.matterFacts, ['Matter identifier', 'Organization identifier']);
  l.heading('Transfer into the vault');
  if (m.transferFacts) l.facts(m.transferFacts);
  else l.write('The transfer has not started yet.', { color: MUTED });
  files(l, m);
  l.heading('Verification of the stored files');
  l.write(m.verificationSummary, m.verificationFailed ? { font: SANS_BOLD, color: WARN } : {});
  for (const [path, at, result, difference] of m.verificationRows) {
    l.write(`${path}: ${result.toLowerCase()} when last re-read on ${at}${difference ? ` (${difference})` : ''}.`, { size: 9.5 });
  }
  auditTrail(l, m);
  signature(l, m);
  howToVerify(l, m);
  for (const d of m.destruction) {
    l.heading('Certificate of destruction');
    protection(l, d.protection);
    l.write(d.text, { size: 9.5 });
    l.facts(d.facts, ['Signing key id', 'SHA-256 of the stored certificate', 'Stored at']);
  }
  for (const c of m.certificateTexts) {
    l.heading(`Appendix: ${c.title}`);
    l.write(c.text, { font: MONO, size: 6.5 });
  }

  // The footer of every page: what the document is, and where in it the reader is.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - 40;
    doc
      .moveTo(l.left, y - 6)
      .lineTo(l.left + l.width, y - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.font(SANS).fontSize(7.5).fillColor(MUTED);
    doc.text(printable(m.footer), l.left, y, { width: l.width - 90, lineBreak: false, ellipsis: true });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, l.left + l.width - 90, y, { width: 90, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
