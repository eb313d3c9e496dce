import zlib from 'node:zlib';
import PDFDocument from 'pdfkit';
import yazl from 'yazl';

/** Collects a stream's bytes. */
function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** A PDF of a few pages of text, one paragraph list per page (pdfkit, the server's own PDF library). */
export function makePdf(pages: string[][]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 72 });
  const out = bytesOf(doc);
  pages.forEach((lines, i) => {
    if (i > 0) doc.addPage();
    doc.fontSize(20).text(lines[0]!);
    doc.moveDown();
    for (const line of lines.slice(1)) doc.fontSize(12).text(line).moveDown(0.5);
  });
  doc.end();
  return out;
}

/** A PNG of the given size: a blue-to-green gradient with a dark band, written by hand (zlib and its CRC-32). */
export function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x += 1) {
      const band = Math.abs(y - height / 2) < height / 10;
      raw[row + 1 + x * 3] = band ? 20 : 30;
      raw[row + 2 + x * 3] = band ? 20 : Math.round((255 * x) / width);
      raw[row + 3 + x * 3] = band ? 20 : Math.round(255 - (255 * x) / width);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The smallest .docx Word opens: a heading, paragraphs and a bulleted list, zipped by hand (yazl). */
export function makeDocx(heading: string, paragraphs: string[], bullets: string[]): Promise<Buffer> {
  const para = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
  const bullet = (text: string) =>
    `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${esc(text)}</w:t></w:r></w:p>`;
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const files: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>' +
      '</Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
    'word/_rels/document.xml.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>' +
      '</Relationships>',
    'word/numbering.xml':
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering ${W}>` +
      '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum>' +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>',
    'word/document.xml':
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>` +
      para(heading, 'Heading1') +
      paragraphs.map((p) => para(p)).join('') +
      bullets.map(bullet).join('') +
      '</w:body></w:document>',
  };
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text, 'utf8'), name);
  zip.end();
  return bytesOf(zip.outputStream);
}

/**
 * An email as a mail client saves it (.eml): headers, an HTML body that tries to run a script, track its reader
 * with a remote image and restyle the page, and one attachment.
 */
export function makeEml(): Buffer {
  return Buffer.from(
    [
      'From: "Ann Marlow" <ann@marlow.example>',
      'To: Jane Counsel <jane@firm.example>',
      'Cc: clerk@firm.example',
      'Subject: Completion statement',
      'Date: Tue, 24 Nov 2026 09:30:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<style>body { display: none }</style>' +
        '<p onclick="window.__pwned = 1">Please find the completion <b>statement</b> attached.</p>' +
        '<script>window.__pwned = 2</script><img src="https://tracker.example/pixel.gif" onerror="window.__pwned = 3">' +
        '<p>Kind regards,<br>Ann</p>',
      '--b1',
      'Content-Type: application/pdf; name="statement.pdf"',
      'Content-Disposition: attachment; filename="statement.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF-1.4 completion statement').toString('base64'),
      '--b1--',
      '',
    ].join('\r\n'),
  );
}
