import { Link } from 'react-router';
import type { ApprovalRequestView, ApprovalStatus } from '@strongroom/contracts';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { actionLabel, formatApprovalTime } from '../lib/approval-format';
import { ApprovalStatusBadge } from './approval-status-badge';

const SKELETON_ROWS = 4;

type ApprovalsTableProps = {
  status: ApprovalStatus;
  requests: ApprovalRequestView[];
  loading: boolean;
};

/** One status's requests: what, about what, who asked, when, and until when (or when it was decided). */
export function ApprovalsTable({ status, requests, loading }: ApprovalsTableProps) {
  const pending = status === 'pending';
  return (
    <Table aria-label="Approval requests" aria-busy={loading || undefined}>
      <TableHeader>
        <TableRow>
          <TableHead>Action</TableHead>
          <TableHead>Title</TableHead>
          <TableHead>Requested by</TableHead>
          <TableHead>Requested at</TableHead>
          <TableHead>{pending ? 'Expires' : 'Decided'}</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {loading
          ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <TableRow key={i}>
                {Array.from({ length: 6 }, (__, j) => (
                  <TableCell key={j}>
                    <Skeleton className="h-4 w-full min-w-16" />
                  </TableCell>
                ))}
              </TableRow>
            ))
          : requests.map((r) => (
              <TableRow key={r.requestId}>
                <TableCell className="min-w-40">{actionLabel(r.action, r.actionLabel)}</TableCell>
                <TableCell className="min-w-56">
                  <Link
                    to={`/approvals/${encodeURIComponent(r.requestId)}`}
                    className="font-medium text-link underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    {r.preview.title}
                  </Link>
                  {r.canDecide ? <span className="ml-2 text-xs font-medium text-primary">Your decision</span> : null}
                </TableCell>
                <TableCell className="min-w-36">
                  <span className="block">{r.requestedBy.name}</span>
                  <span className="block text-xs text-muted-foreground">{r.requestedBy.email}</span>
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatApprovalTime(r.requestedAt)}</TableCell>
                <TableCell className="whitespace-nowrap">{formatApprovalTime(pending ? r.expiresAt : r.decidedAt)}</TableCell>
                <TableCell>
                  <ApprovalStatusBadge status={r.status} />
                </TableCell>
              </TableRow>
            ))}
      </TableBody>
    </Table>
  );
}
