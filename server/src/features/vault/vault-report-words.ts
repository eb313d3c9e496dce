/**
 * The words of the chain-of-custody report: dates in words with their time zone, sizes with their exact byte
 * count, fingerprints in groups of four, a file's lock, and the audit trail as one sentence per entry.
 */
import type { VaultCertificatePayload } from '@strongroom/contracts';
import type { VaultAuditRow } from './vault-queries.repository.js';

// ---------------------------------------------------------------- words

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A moment in words with its time zone: '26 November 2026, 14:05 UTC'. Every date of the report is in UTC. */
export function dateInWords(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

export const when = (d: Date | string | null | undefined, none = 'Not recorded') => (d ? dateInWords(new Date(d)) : none);
export const orNone = (v: string | null | undefined, none = 'None recorded') => (v === null || v === undefined || v === '' ? none : v);

/** A size for people, with the exact byte count: '1.50 MiB (1,572,864 bytes)'. */
export function sizeInWords(n: number | string): string {
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

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;
export const quoted = (v: unknown) => `“${String(v ?? '')}”`;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null;

/** The lock a certificate states for a file, in words. */
export function lockInWords(f: Pick<VaultCertificatePayload['files'][number], 'lockMode' | 'retainUntil' | 'legalHold'>): string {
  if (!f.lockMode) return 'Not locked: the store confirmed no lock';
  const mode = f.lockMode === 'COMPLIANCE' ? 'Compliance' : 'Governance';
  return `${mode} lock until ${when(f.retainUntil, 'no date')}; legal hold ${f.legalHold ? 'on' : 'off'}`;
}

// ---------------------------------------------------------------- the audit trail in sentences

export type Sentence = { at: string; text: string; hash?: string };

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
