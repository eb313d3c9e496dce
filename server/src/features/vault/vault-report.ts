/**
 * The chain-of-custody report of a vaulted matter, written as a document a firm hands to a court: a title block,
 * dates in words with their time zone, the files with their SHA-256 as the signed certificate states them, the
 * audit trail in sentences, the signature block (key id and fingerprint) and how to verify it all without
 * Strongroom. `reportModel` decides every text once; `renderVaultReport` lays it out as one print-ready HTML page
 * and vault-report-pdf.ts as a PDF, so both say the same.
 *
 * The HTML carries no script and no outside resource (the page's own style only), so it opens the same offline,
 * years later, under any content security policy; every value is HTML-escaped. The signed certificate is
 * embedded verbatim (its stored bytes).
 */
import type { SignedCertificate, StoreProtection, VaultCertificatePayload } from '@strongroom/contracts';
import { certificateBytes } from '../../platform/signing.js';
import { keyIdOf } from '../../platform/signing-verify.js';
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
  /** The installation's address, for the published signing keys (APP_URL). */
  appUrl: string;
  matter: MatterRow;
  transfer: TransferRow | null;
  objects: VaultObjectRow[];
  verifications: Map<string, { checkedAt: Date; ok: boolean; problem: string | null }>;
  audit: VaultAuditRow[];
  certificates: CertificateRow[];
};

// ---------------------------------------------------------------- words

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A moment in words with its time zone: '26 November 2026, 14:05 UTC'. Every date of the report is in UTC. */
export function dateInWords(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

const when = (d: Date | string | null | undefined, none = 'Not recorded') => (d ? dateInWords(new Date(d)) : none);
const orNone = (v: string | null | undefined, none = 'None recorded') => (v === null || v === undefined || v === '' ? none : v);

/** A size for people, with the exact byte count: '1.50 MiB (1,572,864 bytes)'. */
function sizeInWords(n: number | string): string {
  const v = Number(n);
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let x = v;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  const exact = `${v.toLocaleString('en-GB')} ${v === 1 ? 'byte' : 'bytes'}`;
  return i === 0 ? exact : `${x.toFixed(2)} ${units[i]} (${exact})`;
}

/** A hex fingerprint in groups of four, as people compare it: 'a1b2 c3d4 …'. */
export function groupedInFours(hex: string): string {
  return hex.match(/.{1,4}/g)?.join(' ') ?? hex;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;
const quoted = (v: unknown) => `“${String(v ?? '')}”`;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null;

/** The lock a certificate states for a file, in words. */
function lockInWords(f: Pick<VaultCertificatePayload['files'][number], 'lockMode' | 'retainUntil' | 'legalHold'>): string {
  if (!f.lockMode) return 'Not locked: the store confirmed no lock';
  const mode = f.lockMode === 'COMPLIANCE' ? 'Compliance' : 'Governance';
  return `${mode} lock until ${when(f.retainUntil, 'no date')}; legal hold ${f.legalHold ? 'on' : 'off'}`;
}

// ---------------------------------------------------------------- the audit trail in sentences

type Sentence = { at: string; text: string; hash?: string };

const MATTER_FIELDS: Record<string, string> = {
  matterName: 'name',
  matterNumber: 'number',
  clientName: 'client',
  responsibleLawyer: 'responsible lawyer',
  description: 'description',
  status: 'status',
};

/** The action's name as words, for an action this report has no sentence for: 'UPDATE_ORG_INFO' -> 'update org info'. */
const actionWords = (action: string) => action.toLowerCase().replace(/_/g, ' ');

/** One sentence per audit entry, by its action; an action without its own sentence gets a generic one. */
export function auditSentence(a: VaultAuditRow): Sentence {
  const d = a.details ?? {};
  const who = a.actorName ?? a.actorEmail ?? 'Strongroom';
  const kind = d.nodeType === 'folder' ? 'folder' : 'file';
  const at = dateInWords(a.createdAt);
  const fileName = str(d.fileName) ?? str(d.name) ?? str(d.path);
  switch (a.action) {
    case 'CREATE_MATTER':
      return { at, text: `${who} opened the matter ${quoted(d.matterName)}${str(d.matterNumber) ? ` as ${String(d.matterNumber)}` : ''}.` };
    case 'UPDATE_MATTER': {
      const changes = d.changes && typeof d.changes === 'object' ? Object.keys(d.changes) : [];
      const fields = changes.map((c) => MATTER_FIELDS[c] ?? c);
      return { at, text: `${who} changed the matter's ${fields.length ? fields.join(', ') : 'details'}.` };
    }
    case 'UNDO_UPDATE_MATTER':
      return { at, text: `${who} undid a change to the matter's details.` };
    case 'CREATE_FOLDER':
      return { at, text: `${who} created the folder ${quoted(d.name)}.` };
    case 'UPLOAD_FILE':
      return {
        at,
        text: `${who} uploaded the file ${quoted(fileName)}${num(d.fileSize) !== null ? ` (${sizeInWords(num(d.fileSize)!)})` : ''}.`,
        hash: str(d.sha256Hash) ?? undefined,
      };
    case 'RENAME_NODE':
      return { at, text: `${who} renamed the ${kind} ${quoted(d.from)} to ${quoted(d.to)}.` };
    case 'MOVE_NODE':
      return { at, text: `${who} moved the ${kind} ${quoted(d.name)} to another folder.` };
    case 'UNDO_RENAME_NODE':
      return { at, text: `${who} undid the renaming of a ${kind}.` };
    case 'UNDO_MOVE_NODE':
      return { at, text: `${who} undid the move of a ${kind}.` };
    case 'DELETE_NODE': {
      const files = num(d.deletedFiles) ?? 0;
      const inside = kind === 'folder' && files > 0 ? `, with ${plural(files, 'file')} in it` : '';
      return { at, text: `${who} deleted the ${kind} ${quoted(d.name)}${inside}.` };
    }
    case 'DOWNLOAD_FILE':
    case 'DOWNLOAD_VAULTED_FILE':
      return { at, text: `${who} downloaded the file ${quoted(fileName)}.` };
    case 'UPLOAD_ABORTED':
      return { at, text: `${who} cancelled an upload${fileName ? ` of ${quoted(fileName)}` : ''}; nothing of it was kept.` };
    case 'UPLOAD_EXPIRED':
      return { at, text: `An unfinished upload${fileName ? ` of ${quoted(fileName)}` : ''} expired; nothing of it was kept.` };
    case 'UPLOAD_FAILED':
      return { at, text: `An upload${fileName ? ` of ${quoted(fileName)}` : ''} failed; nothing of it was kept.` };
    case 'APPLY_LEGAL_HOLD':
      return { at, text: `${who} placed the matter under legal hold${str(d.reason) ? `, giving the reason ${quoted(d.reason)}` : ''}.` };
    case 'REMOVE_LEGAL_HOLD':
      return { at, text: `${who} removed the legal hold${str(d.reason) ? `, giving the reason ${quoted(d.reason)}` : ''}.` };
    case 'VAULT_MATTER': {
      const until = str(d.retentionExpiresAt);
      return {
        at,
        text: `${who} vaulted the matter on ${when(str(d.vaultedAt) ?? a.createdAt)}${until ? `, to be retained until ${when(until)}` : ''}, and a legal hold was applied.`,
      };
    }
    case 'VAULT_TRANSFER_INITIATED':
      return {
        at,
        text: `Strongroom began moving ${plural(num(d.files) ?? 0, 'file')} (${sizeInWords(num(d.bytes) ?? 0)}) into the vault.`,
      };
    case 'VAULT_TRANSFER_COMPLETED':
      return {
        at,
        text: `Strongroom completed the transfer: ${plural(num(d.files) ?? 0, 'file')} (${sizeInWords(num(d.bytes) ?? 0)}) are in the vault, each read back and its SHA-256 checked.`,
      };
    case 'VAULT_TRANSFER_FAILED':
      return {
        at,
        text: `Strongroom could not vault ${quoted(d.path)} (${String(d.reason ?? 'no reason recorded')}); the transfer was tried again later.`,
      };
    case 'VAULT_CERTIFICATE_ISSUED':
      return {
        at,
        text: `Strongroom signed and stored the vault certificate for ${plural(num(d.files) ?? 0, 'file')}; the stored certificate's SHA-256 is:`,
        hash: str(d.sha256) ?? undefined,
      };
    case 'VAULT_VERIFICATION_PASSED':
      return { at, text: `Strongroom re-read ${quoted(d.path)} from the vault and found it as recorded.` };
    case 'VAULT_VERIFICATION_FAILED': {
      const problems = Array.isArray(d.problems) ? d.problems.map(String).join('; ') : 'a difference';
      return { at, text: `Strongroom re-read ${quoted(d.path)} from the vault and found it different from the record: ${problems}.` };
    }
    case 'VAULT_REPORT_EXPORTED':
      return {
        at,
        text: `${who} exported the chain-of-custody report${str(d.format) ? ` as ${String(d.format).toUpperCase()}` : ''}.`,
      };
    case 'RETENTION_CLEANUP':
      return {
        at,
        text: `The retention period had ended: Strongroom deleted ${plural(num(d.filesDeleted) ?? 0, 'file')} from the vault and signed a certificate of destruction, whose SHA-256 is:`,
        hash: str(d.certificateSha256) ?? undefined,
      };
    default:
      return { at, text: `${who} recorded the action ${quoted(actionWords(a.action))} on this matter.` };
  }
}

// ---------------------------------------------------------------- the model both renderers lay out

type ReportFile = {
  number: number;
  path: string;
  size: string;
  lock: string;
  status: string;
  sha256: string;
  objectKey: string;
  versionId: string | null;
};

type SignatureBlock = {
  title: string;
  issued: string;
  keyId: string;
  fingerprint: string;
  /** Whether the key id is the sha256 of the public key the certificate carries (it must be). */
  keyIdMatches: boolean;
  certificateSha256: string;
  storedAt: string;
  chainHead: string | null;
};

export type ReportModel = {
  title: string;
  firm: string;
  matterName: string;
  matterNumber: string;
  client: string;
  generated: string;
  /** The vault certificate's statement about the store's protection; null before it was stated. */
  protection: StoreProtection | null;
  matterFacts: Array<[string, string]>;
  transferFacts: Array<[string, string]> | null;
  files: ReportFile[];
  filesHeading: string;
  verificationSummary: string;
  verificationFailed: boolean;
  verificationRows: Array<[string, string, string, string]>;
  audit: Sentence[];
  signature: SignatureBlock | null;
  verifyCommands: string[];
  /** Where the firm publishes its signing keys. */
  keysUrl: string;
  destruction: Array<{ facts: Array<[string, string]>; protection: StoreProtection | null; text: string }>;
  /** The stored bytes of each certificate, for the appendix. */
  certificateTexts: Array<{ title: string; text: string }>;
  footer: string;
};

const NOT_READY = 'The vault certificate is written when the transfer completes.';

export function reportModel(r: VaultReportInput): ReportModel {
  const m = r.matter;
  const vaultCertificate = r.certificates.find((c) => c.kind === 'vault') ?? null;
  const certified = new Map((vaultCertificate?.body.payload.files ?? []).map((f) => [f.objectKey, f]));
  const retentionEnded = m.retentionExpiresAt !== null && m.retentionExpiresAt.getTime() <= r.generatedAt.getTime();

  const files: ReportFile[] = r.objects.map((o, i) => {
    const stated = certified.get(o.objectKey);
    return {
      number: i + 1,
      path: o.path,
      size: sizeInWords(o.size),
      lock: stated ? lockInWords(stated) : 'Not certified yet',
      status: o.state === 'destroyed' ? `Deleted ${when(o.destroyedAt)} at retention end` : 'In the vault',
      // The hashes are the certificate's once it exists; before that, the ones recorded at the transfer.
      sha256: stated?.sha256 ?? o.sha256,
      objectKey: o.objectKey,
      versionId: stated ? stated.versionId : o.versionId,
    };
  });
  const vaulted = r.objects.filter((o) => o.state === 'vaulted').length;
  const destroyed = r.objects.length - vaulted;
  const failures = [...r.verifications.values()].filter((v) => !v.ok).length;
  const verificationRows = r.objects
    .filter((o) => r.verifications.has(o.id))
    .map((o): [string, string, string, string] => {
      const v = r.verifications.get(o.id)!;
      return [o.path, when(v.checkedAt), v.ok ? 'As recorded' : 'Different', orNone(v.problem, '')];
    });

  const t = r.transfer;
  let signature: SignatureBlock | null = null;
  if (vaultCertificate) {
    const c = vaultCertificate.body;
    let keyIdMatches: boolean;
    try {
      keyIdMatches = keyIdOf(c.publicKey) === c.keyId;
    } catch {
      // A public key that cannot be read matches no key id.
      keyIdMatches = false;
    }
    const head = c.payload.auditChainHead;
    signature = {
      title: 'Vault certificate',
      issued: when(vaultCertificate.issuedAt),
      keyId: c.keyId,
      fingerprint: groupedInFours(c.keyId),
      keyIdMatches,
      certificateSha256: vaultCertificate.sha256,
      storedAt: vaultCertificate.objectKey,
      chainHead: head ? `entry ${head.sequence}, ${head.hash}` : null,
    };
  }
  const keysUrl = `${r.appUrl.replace(/\/$/, '')}/.well-known/strongroom-signing-keys`;
  const fp = vaultCertificate?.body.keyId ?? '<fingerprint>';
  const certText = (c: CertificateRow) => certificateBytes(c.body).toString('utf8');
  const number = orNone(m.matterNumber, 'No number');

  return {
    title: 'Chain-of-Custody Report',
    firm: r.organization.name,
    matterName: m.matterName,
    matterNumber: number,
    client: orNone(m.clientName, 'No client recorded'),
    generated: `Prepared ${dateInWords(r.generatedAt)} by ${r.generatedBy.name} (${r.generatedBy.email}) from the records of Strongroom.`,
    protection: vaultCertificate?.body.payload.storeProtection ?? null,
    matterFacts: [
      ['Responsible lawyer', orNone(m.responsibleLawyer)],
      ['Description', orNone(m.description)],
      ['Opened', when(m.createdAt)],
      ['Vaulted', when(m.vaultedAt)],
      [
        'Retention',
        m.retentionExpiresAt
          ? `${retentionEnded ? 'Ended' : 'Runs until'} ${dateInWords(m.retentionExpiresAt)}`
          : 'Permanent: the files are kept without end',
      ],
      ['Legal hold', m.legalHold ? `In force${m.holdReason ? `: ${quoted(m.holdReason)}` : ''}` : 'Not in force'],
      ['Status', m.status],
      ['Matter identifier', m.id],
      ['Organization identifier', r.organization.id],
    ],
    transferFacts: t
      ? [
          ['Result', t.state === 'completed' ? 'Completed' : t.state === 'failed' ? 'Failed; it is tried again' : 'Under way'],
          ['Files', `${t.filesDone.toLocaleString('en-GB')} of ${t.filesTotal.toLocaleString('en-GB')}`],
          ['Size', `${sizeInWords(t.bytesDone)} of ${sizeInWords(t.bytesTotal)}`],
          ['Attempts', String(t.attempts)],
          ['Started', when(t.startedAt)],
          ['Completed', when(t.completedAt, 'Not completed')],
          ['Last error', orNone(t.lastError, 'None')],
        ]
      : null,
    files,
    filesHeading: `Files (${plural(vaulted, 'file')} in the vault${destroyed ? `, ${plural(destroyed, 'file')} deleted at retention end` : ''})`,
    verificationSummary:
      verificationRows.length === 0
        ? 'No file has been re-read from the vault yet.'
        : `${plural(verificationRows.length, 'file')} re-read from the vault; ${failures === 0 ? 'every one was as recorded' : `${plural(failures, 'file')} differed from the record`}.`,
    verificationFailed: failures > 0,
    verificationRows,
    // Oldest first: the story as it happened.
    audit: [...r.audit].reverse().map(auditSentence),
    signature,
    keysUrl,
    verifyCommands: [
      `npm run verify-certificate -- certificate.json --fingerprint ${fp} --files <folder>`,
      `npm run verify-certificate -- certificate.json --keys-url ${keysUrl} --files <folder>`,
    ],
    destruction: r.certificates
      .filter((c) => c.kind === 'destruction')
      .map((c) => ({
        facts: [
          ['Issued', when(c.issuedAt)],
          ['Files deleted', plural(c.body.payload.totals.files, 'file')],
          ['Size deleted', sizeInWords(c.body.payload.totals.bytes)],
          ['Signing key id', c.body.keyId],
          ['SHA-256 of the stored certificate', c.sha256],
          ['Stored at', c.objectKey],
        ],
        protection: c.body.payload.storeProtection ?? null,
        text: `The retention period of this matter ended and no legal hold was in force. Strongroom deleted each file listed above from the vault and signed this certificate of destruction with the installation's key; the files' SHA-256 in it are those of the vault certificate.`,
      })),
    certificateTexts: r.certificates.map((c) => ({
      title: c.kind === 'destruction' ? 'Certificate of destruction (signed JSON)' : 'Vault certificate (signed JSON)',
      text: certText(c),
    })),
    footer: `${r.organization.name} · ${m.matterName} (${number}) · Chain-of-custody report`,
  };
}

// ---------------------------------------------------------------- HTML

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: the five characters that could end an element or an attribute become entities. */
function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Text as a CSS string literal: quotes, backslashes, line ends and '<' (which could end the style element) escaped. */
function cssString(value: string): string {
  return `"${value.replace(/[\\"\n\r<>]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}"`;
}

/** The report's file name: strongroom_vault_report_<matter number, else id>.<extension>, with only safe characters. */
export function reportFileName(matter: Pick<MatterRow, 'id' | 'matterNumber'>, extension: 'html' | 'pdf' = 'html'): string {
  const label = (matter.matterNumber ?? '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || matter.id;
  return `strongroom_vault_report_${label}.${extension}`;
}

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
