import { CheckCircle2, XCircle } from 'lucide-react';
import type { VaultTransferState, VaultVerification } from '@strongroom/contracts';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { formatDate, retentionLeft, retentionLeftText } from '../lib/vault-format';

const TRANSFER: Record<VaultTransferState, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Waiting to transfer', tone: 'neutral' },
  transferring: { label: 'Transferring', tone: 'primary' },
  completed: { label: 'In the vault', tone: 'success' },
  failed: { label: 'Transfer failed (retrying)', tone: 'danger' },
};

export function TransferBadge({ state }: { state: VaultTransferState }) {
  const t = TRANSFER[state];
  return <Badge tone={t.tone}>{t.label}</Badge>;
}

export function LegalHoldBadge({ held }: { held: boolean }) {
  return held ? <Badge tone="danger">Active</Badge> : <Badge tone="outline">Inactive</Badge>;
}

/** The retention end: its date or 'Permanent', then the years and days left or an 'Expired' badge. */
export function RetentionCell({ expiresAt, now }: { expiresAt: Date | string | null; now?: Date }) {
  const left = retentionLeft(expiresAt, now);
  if (left.kind === 'permanent') return <span>Permanent</span>;
  return (
    <div className="grid gap-1">
      <span>{formatDate(expiresAt)}</span>
      {left.kind === 'expired' ? (
        <span>
          <Badge tone="warning">Expired</Badge>
        </span>
      ) : (
        <span className="text-xs text-muted-foreground">{retentionLeftText(left)}</span>
      )}
    </div>
  );
}

/** The last continuous verification: its date and result, or 'Not yet'. */
export function VerificationCell({ verification }: { verification: VaultVerification | null }) {
  if (!verification) return <span className="text-muted-foreground">Not yet</span>;
  const passed = verification.result === 'passed';
  return (
    <div className="grid gap-1">
      <span>{formatDate(verification.checkedAt)}</span>
      <span>
        <Badge
          tone={passed ? 'success' : 'danger'}
          title={`${verification.objectsChecked} checked, ${verification.failures} ${verification.failures === 1 ? 'difference' : 'differences'}`}
        >
          {passed ? <CheckCircle2 aria-hidden="true" /> : <XCircle aria-hidden="true" />}
          {passed ? 'Passed' : 'Failed'}
        </Badge>
      </span>
    </div>
  );
}
