import { type ManagedUser } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';

/** A member's account status: Active or Deactivated. */
export function StatusBadge({ status }: { status: ManagedUser['status'] }) {
  return status === 'active' ? <Badge tone="success">Active</Badge> : <Badge tone="danger">Deactivated</Badge>;
}
