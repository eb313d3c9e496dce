import { Link } from 'react-router';
import type { ApprovalRequestView, ApprovalStatus } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
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
    <>
      <ApprovalsCards status={status} requests={requests} loading={loading} />
      <Table aria-label="Approval requests" aria-busy={loading || undefined} containerClassName="hidden md:block">
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
                    {r.canDecide ? (
                      <Badge tone="primary" className="ml-2">
                        Your decision
                      </Badge>
                    ) : null}
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
    </>
  );
}

/** Below 768 px the requests are cards: the table's six columns would not fit a phone. */
function ApprovalsCards({ status, requests, loading }: ApprovalsTableProps) {
  const pending = status === 'pending';
  if (loading) {
    return (
      <div className="grid gap-3 md:hidden" aria-hidden="true">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-28 w-full" />
        ))}
      </div>
    );
  }
  return (
    <ul className="grid gap-3 md:hidden" aria-label="Approval requests">
      {requests.map((r) => (
        <li key={r.requestId} className="grid gap-2 rounded-lg border border-border bg-card p-4 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-xs font-medium text-muted-foreground">{actionLabel(r.action, r.actionLabel)}</span>
            <ApprovalStatusBadge status={r.status} />
            {r.canDecide ? <Badge tone="primary">Your decision</Badge> : null}
          </div>
          <Link
            to={`/approvals/${encodeURIComponent(r.requestId)}`}
            className="font-medium break-words text-link underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          >
            {r.preview.title}
          </Link>
          <p className="text-xs text-muted-foreground">
            {r.requestedBy.name}, {formatApprovalTime(r.requestedAt)} · {pending ? 'expires' : 'decided'}{' '}
            {formatApprovalTime(pending ? r.expiresAt : r.decidedAt)}
          </p>
        </li>
      ))}
    </ul>
  );
}
