/**
 * What a destroy decision would do, for the approvers of a governed one (DESTROY_AT_RETENTION_END): every file and
 * version that would go, with its sha256 (the first APPROVAL_LIMITS.previewFilesMax listed, the rest counted), and
 * the state it depends on (`touches`): the matter's hold, its retention end, the review's state and the set of vault
 * objects. Any of these changing before the approval voids the request, as does a matter no longer decidable then.
 */
import { createHash } from 'node:crypto';
import { APPROVAL_LIMITS, APPROVAL_MSG, type ApprovalPreview, type DispositionDecideRequest } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { AppError } from '../../shared/errors.js';
import { getVisibleMatter, type MatterRow } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { filesInVault } from '../vault/index.js';
import { reviewOfEnd, type ReviewRow } from './disposition.repository.js';
import { requireDecidable } from './disposition-rules.js';

const day = (d: Date) => d.toISOString().slice(0, 10);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

function sizeInWords(bytes: number): string {
  if (bytes < 1024) return plural(bytes, 'byte');
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/**
 * The effect of this decision on the store as it is, or null when it is not a destroy decision (only those are
 * governed). A decision that would be refused is refused here with the same answer.
 */
export async function destroyEffect(
  trx: Executor,
  auth: AuthContext,
  body: DispositionDecideRequest,
): Promise<{ preview: ApprovalPreview; touches: Record<string, string> } | null> {
  if (body.decision !== 'destroy') return null;
  const { organizationId } = auth.user;
  let matter: MatterRow;
  let review: ReviewRow;
  try {
    matter = await getVisibleMatter(trx, auth.user, body.matterId);
    const current = matter.retentionExpiresAt
      ? await reviewOfEnd(trx, organizationId, matter.id, matter.retentionExpiresAt, false)
      : undefined;
    review = requireDecidable(matter, current, body);
  } catch (err) {
    // A decision the review refuses is not governed: it runs, and is refused with its own answer; at approval,
    // a matter no longer decidable (held, extended, decided) voids the request.
    if (err instanceof AppError) return null;
    throw err;
  }
  const end = matter.retentionExpiresAt!;
  const files = await filesInVault(trx, organizationId, matter.id);
  const distinct = new Set(files.map((f) => f.nodeId)).size;
  const bytes = files.reduce((s, f) => s + f.sizeBytes, 0);
  const name = `“${matter.matterName}”${matter.matterNumber ? ` (${matter.matterNumber})` : ''}`;
  const listed = files.slice(0, APPROVAL_LIMITS.previewFilesMax);
  const objects = createHash('sha256')
    .update(
      files
        .map((f) => `${f.objectKey}:${f.sha256}`)
        .sort()
        .join('\n'),
    )
    .digest('hex');
  return {
    preview: {
      action: 'DESTROY_AT_RETENTION_END',
      title: `Destroy the vaulted files of ${name}`,
      summary:
        `Deletes ${plural(distinct, 'file')} (${plural(files.length, 'version')}, ${sizeInWords(bytes)}) from the vault ` +
        `when the retention ends on ${day(end)}, or at once if it has ended, with a certificate of destruction naming the approvers. ` +
        APPROVAL_MSG.cannotBeUndone,
      cannotBeUndone: true,
      facts: [
        { label: 'Matter', value: name },
        { label: 'Client', value: matter.clientName ?? '—' },
        { label: 'Retention ends', value: day(end) },
        { label: 'Files', value: `${plural(distinct, 'file')}, ${plural(files.length, 'version')}` },
        { label: 'Size', value: sizeInWords(bytes) },
        { label: 'Reason', value: body.reason },
      ],
      files: listed.map((f) => ({ path: f.path, versionNumber: f.versionNumber, sizeBytes: f.sizeBytes, sha256: f.sha256 })),
      filesNotListed: files.length - listed.length,
    },
    touches: {
      'matter.legalHold': matter.legalHold ? 'on' : 'off',
      'matter.retentionExpiresAt': end.toISOString(),
      'review.status': `${review.id}:${review.status}`,
      'vault.objects': `${files.length} objects, sha256 ${objects}`,
    },
  };
}
