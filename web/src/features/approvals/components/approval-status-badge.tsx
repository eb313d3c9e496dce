import { APPROVAL_STATUS_LABELS, type ApprovalStatus } from '@strongroom/contracts';
import { Badge, type BadgeTone } from '@/components/ui/badge';

const TONES: Record<ApprovalStatus, BadgeTone> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
  expired: 'neutral',
  void: 'outline',
};

export function ApprovalStatusBadge({ status }: { status: ApprovalStatus }) {
  return <Badge tone={TONES[status]}>{APPROVAL_STATUS_LABELS[status]}</Badge>;
}
