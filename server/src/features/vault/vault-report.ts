/**
 * The chain-of-custody report of a vaulted matter, written as a document a firm hands to a court: a title block,
 * dates in words with their time zone, the files with their SHA-256 as the signed certificate states them, the
 * audit trail in sentences, the signature block (key id and fingerprint) and how to verify it all without
 * Strongroom. `reportModel` decides every text once (its words come from vault-report-words.ts);
 * vault-report-html.ts lays it out as one print-ready HTML page and vault-report-pdf.ts as a PDF, so both say the
 * same. The signed certificate is embedded verbatim (its stored bytes).
 */
import type { SignedCertificate, StoreProtection } from '@strongroom/contracts';
import { certificateBytes } from '../../platform/signing.js';
import { keyIdOf } from '../../platform/signing-verify.js';
import type { MatterRow } from '../matters/index.js';
import type { VaultAuditRow, VaultObjectRow } from './vault-queries.repository.js';
import {
  auditSentence,
  dateInWords,
  groupedInFours,
  lockInWords,
  orNone,
  plural,
  quoted,
  sizeInWords,
  when,
  type Sentence,
} from './vault-report-words.js';

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

export function reportModel(r: VaultReportInput): ReportModel {
  const m = r.matter;
  const vaultCertificate = r.certificates.find((c) => c.kind === 'vault') ?? null;
  const certified = new Map((vaultCertificate?.body.payload.files ?? []).map((f) => [f.objectKey, f]));
  const retentionEnded = m.retentionExpiresAt !== null && m.retentionExpiresAt.getTime() <= r.generatedAt.getTime();

  // A file with several versions is listed once per version, each named with its number.
  const versionsOf = new Map<string, number>();
  for (const o of r.objects) versionsOf.set(o.nodeId, (versionsOf.get(o.nodeId) ?? 0) + 1);
  const label = (o: VaultObjectRow) => ((versionsOf.get(o.nodeId) ?? 1) > 1 ? `${o.path} (version ${o.versionNumber})` : o.path);
  const files: ReportFile[] = r.objects.map((o, i) => {
    const stated = certified.get(o.objectKey);
    return {
      number: i + 1,
      path: label(o),
      size: sizeInWords(o.size),
      lock: stated ? lockInWords(stated) : 'Not certified yet',
      status: o.state === 'destroyed' ? `Deleted ${when(o.destroyedAt)} at retention end` : 'In the vault',
      // The hashes are the certificate's once it exists; before that, the ones recorded at the transfer.
      sha256: stated?.sha256 ?? o.sha256,
      objectKey: o.objectKey,
      versionId: stated ? stated.versionId : o.versionId,
    };
  });
  // Files are counted once each; a file's versions are named when there are more objects than files.
  const filesIn = (state: VaultObjectRow['state']) => {
    const objects = r.objects.filter((o) => o.state === state);
    const files = new Set(objects.map((o) => o.nodeId)).size;
    return { files, text: plural(files, 'file') + (objects.length > files ? ` (${plural(objects.length, 'version')})` : '') };
  };
  const vaulted = filesIn('vaulted');
  const destroyed = filesIn('destroyed');
  const failures = [...r.verifications.values()].filter((v) => !v.ok).length;
  const verificationRows = r.objects
    .filter((o) => r.verifications.has(o.id))
    .map((o): [string, string, string, string] => {
      const v = r.verifications.get(o.id)!;
      return [label(o), when(v.checkedAt), v.ok ? 'As recorded' : 'Different', orNone(v.problem, '')];
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
    filesHeading: `Files (${vaulted.text} in the vault${destroyed.files ? `, ${destroyed.text} deleted at retention end` : ''})`,
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

/** The report's file name: strongroom_vault_report_<matter number, else id>.<extension>, with only safe characters. */
export function reportFileName(matter: Pick<MatterRow, 'id' | 'matterNumber'>, extension: 'html' | 'pdf' = 'html'): string {
  const label = (matter.matterNumber ?? '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || matter.id;
  return `strongroom_vault_report_${label}.${extension}`;
}
