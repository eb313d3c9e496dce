/**
 * The checks a restore ends with: every stored file and version, vault object and certificate has its recorded
 * sha256 in the restored bytes; every certificate is signed by a key the installation recorded; every
 * organization's audit chain holds, up to its signed head.
 */
import type { AppContext } from '../shared/context.js';
import { organizationsWithAuditChains, verifyOrganizationChain } from '../features/audit/index.js';
import { checkCertificateText } from '../platform/signing-verify.js';
import { trustedSigningKey } from '../platform/signing-keys.js';
import { certificateKeyIds, recordedObjects, restoredCounts } from './backup-reads.js';
import type { Manifest } from './manifest.js';

export type RestoreChecks = {
  organizations: number;
  matters: number;
  files: number;
  versions: number;
  auditEntries: number;
  /** Files, versions, vault objects and certificates whose recorded sha256 the restored bytes have. */
  hashesChecked: number;
  certificates: { checked: number; ok: number };
  auditChains: { checked: number; ok: number; signedHeads: number };
  /** Everything that did not hold, in words; empty when the restore is sound. */
  problems: string[];
};

async function readText(ctx: Pick<AppContext, 'store'>, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.store.getStream(key)) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function checkHashes(ctx: AppContext, manifest: Manifest, problems: string[]): Promise<number> {
  const restored = new Map(manifest.objects.map((o) => [o.key, o.sha256]));
  let checked = 0;
  for (const r of await recordedObjects(ctx.db)) {
    const sha = restored.get(r.key);
    if (sha === undefined) problems.push(`${r.kind} ${r.id}: its object ${r.key} is not in the backup`);
    else if (r.sha256 !== null && r.sha256 !== sha)
      problems.push(`${r.kind} ${r.id}: the restored bytes of ${r.key} do not have the recorded sha256`);
    else checked += 1;
  }
  return checked;
}

async function checkCertificates(ctx: AppContext, problems: string[]): Promise<{ checked: number; ok: number }> {
  const rows = await certificateKeyIds(ctx.db);
  let ok = 0;
  for (const row of rows) {
    const trusted = row.keyId ? await trustedSigningKey(ctx, row.keyId) : null;
    if (!trusted) {
      problems.push(`certificate ${row.id}: signed with a key the installation has not recorded (${row.keyId ?? 'none'})`);
      continue;
    }
    const check = checkCertificateText(await readText(ctx, row.objectKey), { trustedPublicKeyPem: trusted.publicKeyPem });
    if (check.ok) ok += 1;
    else problems.push(`certificate ${row.id}: ${check.problems.join('; ')}`);
  }
  return { checked: rows.length, ok };
}

async function checkAuditChains(ctx: AppContext, problems: string[]): Promise<RestoreChecks['auditChains']> {
  const organizations = await organizationsWithAuditChains(ctx);
  let ok = 0;
  let signedHeads = 0;
  for (const organizationId of organizations) {
    const check = await verifyOrganizationChain(ctx, organizationId);
    if (check.anchor.status === 'signed') signedHeads += 1;
    if (check.isValid) ok += 1;
    else {
      const first = check.invalidEntries[0];
      problems.push(`audit chain of organization ${organizationId}: ${first ? JSON.stringify(first) : check.anchor.message}`);
    }
  }
  return { checked: organizations.length, ok, signedHeads };
}

export async function checkRestoredInstallation(ctx: AppContext, manifest: Manifest): Promise<RestoreChecks> {
  const problems: string[] = [];
  const hashesChecked = await checkHashes(ctx, manifest, problems);
  const certificates = await checkCertificates(ctx, problems);
  const auditChains = await checkAuditChains(ctx, problems);
  return { ...(await restoredCounts(ctx.db)), hashesChecked, certificates, auditChains, problems };
}
