/**
 * The chain-of-custody report of a vaulted matter as one print-ready HTML page. It carries no script and no
 * outside resource (the page's own style only), so it opens the same offline, years later, under any content
 * security policy; every value is HTML-escaped. The signed certificate is embedded verbatim (its stored
 * bytes), with the command that checks it without Strongroom.
 */
import type { SignedCertificate } from '@strongroom/contracts';
import { certificateBytes } from '../../platform/signing.js';
import type { MatterRow } from '../matters/index.js';
import type { VaultAuditRow, VaultObjectRow } from './vault-queries.repository.js';

type CertificateRow = { kind: string; objectKey: string; sha256: string; issuedAt: Date; body: SignedCertificate };
type TransferRow = {
  state: string;
  filesTotal: number;
  filesDone: number;
  bytesTotal: string;
  bytesDone: string;
  attempts: number;
  lastError: string | null;
  startedAt: Date;
  completedAt: Date | null;
};

export type VaultReportInput = {
  generatedAt: Date;
  generatedBy: { name: string; email: string };
  organization: { id: string; name: string };
  matter: MatterRow;
  transfer: TransferRow | null;
  objects: VaultObjectRow[];
  verifications: Map<string, { checkedAt: Date; ok: boolean; problem: string | null }>;
  audit: VaultAuditRow[];
  certificates: CertificateRow[];
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: the five characters that could end an element or an attribute become entities. */
function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const date = (d: Date | null | undefined) => (d ? d.toISOString() : '');
const orNone = (v: string | null | undefined, none = 'N/A') => (v === null || v === undefined || v === '' ? none : v);

function bytes(n: number | string): string {
  const v = Number(n);
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let x = v;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return i === 0 ? `${v} bytes` : `${x.toFixed(2)} ${units[i]} (${v} bytes)`;
}

/** The report's file name: strongroom_vault_report_<matter number, else id>.html, with only safe characters. */
export function reportFileName(matter: Pick<MatterRow, 'id' | 'matterNumber'>): string {
  const label = (matter.matterNumber ?? '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || matter.id;
  return `strongroom_vault_report_${label}.html`;
}

/** A two-column table of facts. */
function facts(rows: Array<[string, string]>): string {
  return `<table class="facts"><tbody>${rows.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`;
}

function table(head: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  return (
    `<table><thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`
  );
}

const STYLE = `
  body { font: 11pt/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #111; margin: 2rem; }
  h1 { font-size: 18pt; margin: 0 0 .25rem; } h2 { font-size: 13pt; margin: 1.75rem 0 .5rem; border-bottom: 1px solid #999; }
  .meta { color: #444; margin: 0 0 1rem; }
  table { border-collapse: collapse; width: 100%; margin: .25rem 0; font-size: 9.5pt; }
  th, td { border: 1px solid #bbb; padding: .25rem .4rem; text-align: left; vertical-align: top; word-break: break-all; }
  thead th { background: #eee; } .facts th { width: 14rem; background: #f6f6f6; word-break: normal; }
  .failed { color: #a00; font-weight: 600; } .empty { color: #555; font-style: italic; }
  pre { white-space: pre-wrap; word-break: break-all; font: 8.5pt/1.35 ui-monospace, Menlo, Consolas, monospace; background: #f6f6f6; border: 1px solid #ccc; padding: .5rem; }
  code { font-family: ui-monospace, Menlo, Consolas, monospace; }
  @media print { body { margin: 0; } h2 { break-after: avoid; } tr { break-inside: avoid; } }
`;

export function renderVaultReport(r: VaultReportInput): string {
  const m = r.matter;
  const vaulted = r.objects.filter((o) => o.state === 'vaulted');
  const destroyed = r.objects.filter((o) => o.state === 'destroyed');
  const retentionEnded = m.retentionExpiresAt !== null && m.retentionExpiresAt.getTime() <= r.generatedAt.getTime();
  const vaultCertificate = r.certificates.find((c) => c.kind === 'vault') ?? null;
  const failures = [...r.verifications.values()].filter((v) => !v.ok).length;

  const sections: string[] = [];
  sections.push(
    `<h2>Organization</h2>` +
      facts([
        ['Name', r.organization.name],
        ['Organization ID', r.organization.id],
      ]),
  );
  sections.push(
    `<h2>Matter</h2>` +
      facts([
        ['Matter name', m.matterName],
        ['Matter number', orNone(m.matterNumber)],
        ['Client', orNone(m.clientName)],
        ['Responsible lawyer', orNone(m.responsibleLawyer)],
        ['Description', orNone(m.description, '')],
        ['Matter ID', m.id],
        ['Status', m.status],
        ['Created', date(m.createdAt)],
        ['Vaulted on', orNone(date(m.vaultedAt))],
      ]),
  );
  sections.push(
    `<h2>Retention and legal hold</h2>` +
      facts([
        ['Retention expires', m.retentionExpiresAt ? date(m.retentionExpiresAt) : 'Permanent'],
        ['Retention state', m.retentionExpiresAt === null ? 'Permanent' : retentionEnded ? 'Expired' : 'Running'],
        ['Legal hold', m.legalHold ? 'Active' : 'Inactive'],
        ['Hold reason', orNone(m.holdReason, '')],
      ]),
  );
  const t = r.transfer;
  sections.push(
    `<h2>Transfer into the vault</h2>` +
      (t
        ? facts([
            ['Result', t.state],
            ['Files', `${t.filesDone} of ${t.filesTotal}`],
            ['Bytes', `${bytes(t.bytesDone)} of ${bytes(t.bytesTotal)}`],
            ['Attempts', String(t.attempts)],
            ['Started', date(t.startedAt)],
            ['Completed', orNone(date(t.completedAt), 'Not completed')],
            ['Last error', orNone(t.lastError, 'None')],
          ])
        : `<p class="empty">The transfer has not started yet.</p>`),
  );
  sections.push(
    `<h2>Files (${vaulted.length} in the vault${destroyed.length ? `, ${destroyed.length} deleted at retention end` : ''})</h2>` +
      table(
        ['Path', 'Size (bytes)', 'SHA-256', 'Object key', 'Version', 'Retain until', 'Lock', 'Legal hold', 'State'],
        r.objects.map((o) => [
          o.path,
          String(o.size),
          o.sha256,
          o.objectKey,
          orNone(o.versionId, 'none'),
          date(o.retainUntil),
          'COMPLIANCE',
          o.legalHold ? 'ON' : 'OFF',
          o.state === 'destroyed' ? `deleted ${date(o.destroyedAt)}` : 'in the vault',
        ]),
        'No file is in the vault.',
      ),
  );
  const verificationRows = r.objects
    .filter((o) => r.verifications.has(o.id))
    .map((o) => {
      const v = r.verifications.get(o.id)!;
      return [o.path, date(v.checkedAt), v.ok ? 'passed' : 'FAILED', orNone(v.problem, '')];
    });
  sections.push(
    `<h2>Last verification</h2>` +
      `<p${failures ? ' class="failed"' : ''}>${escapeHtml(
        verificationRows.length === 0
          ? 'No file has been verified yet.'
          : `${verificationRows.length} file(s) verified, ${failures} with a difference.`,
      )}</p>` +
      table(['Path', 'Checked at', 'Result', 'Difference'], verificationRows, ''),
  );
  sections.push(
    `<h2>Audit trail (${r.audit.length} entries, newest first)</h2>` +
      table(
        ['Time', 'Action', 'By', 'Details'],
        r.audit.map((a) => [
          date(a.createdAt),
          a.action,
          [a.actorName, a.actorEmail ? `<${a.actorEmail}>` : null].filter(Boolean).join(' ') || 'Strongroom',
          a.details && Object.keys(a.details).length ? JSON.stringify(a.details) : '',
        ]),
        'No audit entry names this matter.',
      ),
  );
  // The stored bytes: the canonical JSON the signature covers (the database's jsonb does not keep key order).
  const certText = (c: CertificateRow) => certificateBytes(c.body).toString('utf8');
  sections.push(
    `<h2>Vault certificate</h2>` +
      (vaultCertificate
        ? facts([
            ['Issued', date(vaultCertificate.issuedAt)],
            ['Stored at', vaultCertificate.objectKey],
            ['SHA-256 of the stored certificate', vaultCertificate.sha256],
            ['Signing key id', vaultCertificate.body.keyId],
          ]) +
          `<p>Save the certificate below (or the certificate JSON downloaded with this report) as a file and check it, with no server and no network:</p>` +
          `<pre><code>npm run verify-certificate -- &lt;file&gt;</code></pre>` +
          `<p>Add <code>--files &lt;dir&gt;</code> to check every file's SHA-256 against copies kept in a directory.</p>` +
          `<pre id="certificate">${escapeHtml(certText(vaultCertificate))}</pre>`
        : `<p class="empty">${escapeHtml('The vault certificate is written when the transfer completes.')}</p>`),
  );
  for (const c of r.certificates.filter((x) => x.kind === 'destruction')) {
    sections.push(
      `<h2>Certificate of destruction</h2>` +
        facts([
          ['Issued', date(c.issuedAt)],
          ['Stored at', c.objectKey],
          ['SHA-256 of the stored certificate', c.sha256],
        ]) +
        `<pre>${escapeHtml(certText(c))}</pre>`,
    );
  }
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(`Vault report: ${m.matterName}`)}</title><style>${STYLE}</style></head><body>` +
    `<h1>${escapeHtml(`Chain-of-custody report: ${m.matterName}`)}</h1>` +
    `<p class="meta">${escapeHtml(`Generated ${date(r.generatedAt)} by ${r.generatedBy.name} <${r.generatedBy.email}> from Strongroom.`)}</p>` +
    sections.join('\n') +
    `</body></html>\n`
  );
}
