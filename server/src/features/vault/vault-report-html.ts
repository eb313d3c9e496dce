/**
 * The chain-of-custody report as one print-ready HTML page, laid out from the report's model. The page carries no
 * script and no outside resource (its own style only), so it opens the same offline, years later, under any
 * content security policy; every value is HTML-escaped.
 */
import type { StoreProtection } from '@strongroom/contracts';
import { reportModel, type VaultReportInput } from './vault-report.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: the five characters that could end an element or an attribute become entities. */
function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Text as a CSS string literal: quotes, backslashes, line ends and '<' (which could end the style element) escaped. */
function cssString(value: string): string {
  return `"${value.replace(/[\\"\n\r<>]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}

const NOT_READY = 'The vault certificate is written when the transfer completes.';

/** A two-column table of facts; `classes` names the value cells that are hashes (monospace, wrapping anywhere). */
function facts(rows: Array<[string, string]>, classes: Record<string, string> = {}): string {
  return (
    `<table class="facts"><tbody>` +
    rows
      .map(
        ([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td${classes[k] ? ` class="${classes[k]}"` : ''}>${escapeHtml(v)}</td></tr>`,
      )
      .join('') +
    `</tbody></table>`
  );
}

function protectionNotice(p: StoreProtection | null): string {
  if (!p) return '';
  return p.writeOnce
    ? `<p class="notice">${escapeHtml(p.statement)}</p>`
    : `<p class="notice warning" role="note"><strong>Warning.</strong> ${escapeHtml(p.statement)}</p>`;
}

const STYLE = (footer: string) => `
  :root { color-scheme: light; }
  body { font: 10.5pt/1.5 Georgia, 'Times New Roman', serif; color: #111; background: #fff; margin: 2rem auto; max-width: 52rem; padding: 0 1.5rem; }
  h1, h2, h3, th, .label, .meta, footer { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; }
  h2 { font-size: 12.5pt; margin: 1.75rem 0 .5rem; padding-bottom: .2rem; border-bottom: 1px solid #888; }
  h3 { font-size: 11pt; margin: 1rem 0 .35rem; }
  .title-block { border-top: 3px solid #111; border-bottom: 1px solid #111; padding: .75rem 0 .6rem; margin-bottom: 1rem; }
  .title-block .firm { font: 600 11pt system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; letter-spacing: .04em; text-transform: uppercase; margin: 0; }
  .title-block h1 { font-size: 20pt; margin: .2rem 0 .5rem; }
  .title-block dl { display: grid; grid-template-columns: 9rem 1fr; gap: .1rem 1rem; margin: 0; }
  .title-block dt { font: 600 9.5pt system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #333; }
  .title-block dd { margin: 0; }
  .meta { color: #333; font-size: 9pt; margin: .6rem 0 0; }
  table { border-collapse: collapse; width: 100%; margin: .35rem 0; font-size: 9.5pt; }
  th, td { border: 1px solid #bbb; padding: .3rem .45rem; text-align: left; vertical-align: top; overflow-wrap: break-word; word-break: normal; hyphens: manual; }
  thead th { background: #f1f1f1; font-size: 9pt; }
  .facts th { width: 13rem; background: #f7f7f7; font-weight: 600; font-size: 9pt; }
  .num { text-align: right; white-space: nowrap; }
  /* Fixed columns: a long file name breaks inside its own column (only where it would overflow) instead of
     squeezing the others. */
  table.files { table-layout: fixed; }
  .c-num { width: 2.6rem; } .c-size { width: 7.5rem; } .c-lock { width: 12rem; } .c-status { width: 8rem; }
  .hash, code, pre { font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 8.5pt; }
  .hash { overflow-wrap: anywhere; word-break: normal; }
  tr.detail td { border-top: none; background: #fafafa; padding-top: .15rem; }
  .detail dl { display: grid; grid-template-columns: 6.5rem 1fr; gap: .05rem .75rem; margin: 0; }
  .detail dt { font: 600 8.5pt system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #444; }
  .detail dd { margin: 0; }
  ol.trail { padding-left: 0; list-style: none; margin: .25rem 0; }
  ol.trail li { display: grid; grid-template-columns: 12.5rem 1fr; gap: 1rem; padding: .3rem 0; border-bottom: 1px solid #e3e3e3; break-inside: avoid; }
  ol.trail time { font: 9pt system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #333; white-space: nowrap; }
  ol.trail .hash { display: block; margin-top: .1rem; }
  .notice { border: 1px solid #777; padding: .5rem .75rem; margin: .75rem 0; }
  .notice.warning { border: 2px solid #a00; color: #700; }
  .failed { color: #a00; font-weight: 600; }
  .empty { color: #444; font-style: italic; }
  .signature { border: 1px solid #555; padding: .6rem .9rem; break-inside: avoid; }
  .signature .fingerprint { font-size: 10.5pt; letter-spacing: .02em; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; border: 1px solid #ccc; padding: .5rem .6rem; line-height: 1.35; }
  footer { margin-top: 2rem; border-top: 1px solid #999; padding-top: .4rem; font-size: 8.5pt; color: #444; }
  @page {
    size: A4;
    margin: 18mm 16mm 20mm;
    @bottom-left { content: ${cssString(footer)}; font: 7.5pt system-ui, sans-serif; color: #444; }
    @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 7.5pt system-ui, sans-serif; color: #444; }
  }
  @media print {
    body { margin: 0; max-width: none; padding: 0; font-size: 10pt; }
    thead th, .facts th, tr.detail td, pre { background: none !important; }
    * { box-shadow: none !important; text-shadow: none !important; }
    thead { display: table-header-group; }
    h2, h3 { break-after: avoid; }
    tr, .notice, ol.trail li { break-inside: avoid; }
    footer { display: none; }
  }
`;

export function renderVaultReport(input: VaultReportInput): string {
  const r = reportModel(input);
  const sections: string[] = [];

  sections.push(`<h2>The matter</h2>` + facts(r.matterFacts, { 'Matter identifier': 'hash', 'Organization identifier': 'hash' }));
  sections.push(
    `<h2>Transfer into the vault</h2>` +
      (r.transferFacts ? facts(r.transferFacts) : `<p class="empty">The transfer has not started yet.</p>`),
  );
  sections.push(
    `<h2>${escapeHtml(r.filesHeading)}</h2>` +
      `<p>Each file's lock is the one the object store answered when asked after the copy, as the signed vault certificate states it. Its SHA-256 is the certificate's.</p>` +
      (r.files.length === 0
        ? `<p class="empty">No file is in the vault.</p>`
        : `<table class="files"><colgroup><col class="c-num"><col><col class="c-size"><col class="c-lock"><col class="c-status"></colgroup><thead><tr><th scope="col" class="num">No.</th><th scope="col">File</th><th scope="col">Size</th><th scope="col">Lock</th><th scope="col">Status</th></tr></thead><tbody>` +
          r.files
            .map(
              (f) =>
                `<tr><td class="num">${f.number}</td><td>${escapeHtml(f.path)}</td><td>${escapeHtml(f.size)}</td><td>${escapeHtml(f.lock)}</td><td>${escapeHtml(f.status)}</td></tr>` +
                `<tr class="detail"><td></td><td colspan="4"><dl>` +
                `<dt>SHA-256</dt><dd class="hash">${escapeHtml(f.sha256)}</dd>` +
                `<dt>Object key</dt><dd class="hash">${escapeHtml(f.objectKey)}</dd>` +
                `<dt>Version</dt><dd class="hash">${escapeHtml(f.versionId ?? 'None (the store keeps no versions)')}</dd>` +
                `</dl></td></tr>`,
            )
            .join('') +
          `</tbody></table>`),
  );
  sections.push(
    `<h2>Verification of the stored files</h2>` +
      `<p${r.verificationFailed ? ' class="failed"' : ''}>${escapeHtml(r.verificationSummary)}</p>` +
      (r.verificationRows.length
        ? `<table><thead><tr><th scope="col">File</th><th scope="col">Last re-read</th><th scope="col">Result</th><th scope="col">Difference</th></tr></thead><tbody>` +
          r.verificationRows.map((row) => `<tr>${row.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('') +
          `</tbody></table>`
        : ''),
  );
  sections.push(
    `<h2>Audit trail</h2>` +
      (r.audit.length === 0
        ? `<p class="empty">No audit entry names this matter.</p>`
        : `<p>${escapeHtml(`${r.audit.length} ${r.audit.length === 1 ? 'entry' : 'entries'} from the organization's hash-chained audit log, oldest first.`)}</p>` +
          `<ol class="trail">` +
          r.audit
            .map(
              (s) =>
                `<li><time>${escapeHtml(s.at)}</time><span>${escapeHtml(s.text)}${s.hash ? `<span class="hash">${escapeHtml(s.hash)}</span>` : ''}</span></li>`,
            )
            .join('') +
          `</ol>`),
  );
  const sig = r.signature;
  sections.push(
    `<h2>Signature</h2>` +
      (sig
        ? `<div class="signature">` +
          `<p>The vault certificate of this matter was signed with the Ed25519 key of this Strongroom installation. Compare the fingerprint below with the one the firm publishes (in Strongroom's Settings, and at <span class="hash">${escapeHtml(r.keysUrl)}</span>).</p>` +
          facts(
            [
              ['Certificate issued', sig.issued],
              ['Algorithm', 'Ed25519'],
              ['Key id', sig.keyId],
              ['Key fingerprint (SHA-256 of the public key)', sig.fingerprint],
              ['SHA-256 of the stored certificate', sig.certificateSha256],
              ['Stored in the vault at', sig.storedAt],
              ['Audit chain head quoted', sig.chainHead ?? 'None'],
            ],
            {
              'Key id': 'hash',
              'Key fingerprint (SHA-256 of the public key)': 'hash fingerprint',
              'SHA-256 of the stored certificate': 'hash',
              'Stored in the vault at': 'hash',
              'Audit chain head quoted': 'hash',
            },
          ) +
          (sig.keyIdMatches ? '' : `<p class="failed">The key id is not the fingerprint of the public key in the certificate.</p>`) +
          `</div>`
        : `<p class="empty">${escapeHtml(NOT_READY)}</p>`),
  );
  sections.push(
    `<h2>How to verify this report</h2>` +
      `<ol>` +
      `<li>Save the signed certificate exactly as Strongroom gives it (Export Report, Signed certificate (JSON)) as <code>certificate.json</code>, or copy the text of the appendix below into that file without changing a character.</li>` +
      `<li>Put copies of the files in one folder, each at its path as listed above (the folder is <code>&lt;folder&gt;</code> below).</li>` +
      `<li>In a copy of the Strongroom source, run either command. The first pins the key by the fingerprint printed above; the second fetches the firm's published signing keys.</li>` +
      `</ol>` +
      r.verifyCommands.map((c) => `<pre class="command"><code>${escapeHtml(c)}</code></pre>`).join('') +
      `<p>The check needs no server, database or network (except the second command's key fetch). It ends with <code>OK: the signature holds and every file matches.</code> when the certificate is byte for byte what was signed, the key is the firm's, and every file has the size and SHA-256 listed here; it names every difference otherwise.</p>`,
  );
  for (const d of r.destruction) {
    sections.push(
      `<h2>Certificate of destruction</h2>` +
        protectionNotice(d.protection) +
        `<p>${escapeHtml(d.text)}</p>` +
        facts(d.facts, { 'Signing key id': 'hash', 'SHA-256 of the stored certificate': 'hash', 'Stored at': 'hash' }),
    );
  }
  for (const c of r.certificateTexts) {
    sections.push(
      `<h2>Appendix: ${escapeHtml(c.title)}</h2><pre${c.title.startsWith('Vault') ? ' id="certificate"' : ''}>${escapeHtml(c.text)}</pre>`,
    );
  }

  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(`${r.title}: ${r.matterName}`)}</title><style>${STYLE(r.footer)}</style></head><body>` +
    `<header class="title-block"><p class="firm">${escapeHtml(r.firm)}</p><h1>${escapeHtml(r.title)}</h1><dl>` +
    `<dt>Matter</dt><dd>${escapeHtml(r.matterName)}</dd>` +
    `<dt>Matter number</dt><dd>${escapeHtml(r.matterNumber)}</dd>` +
    `<dt>Client</dt><dd>${escapeHtml(r.client)}</dd>` +
    `</dl><p class="meta">${escapeHtml(r.generated)}</p></header>` +
    protectionNotice(r.protection) +
    sections.join('\n') +
    `<footer>${escapeHtml(r.footer)}</footer>` +
    `</body></html>\n`
  );
}
