import { useSearchParams } from 'react-router';
import { ChevronLeft, ChevronRight, Lock, RefreshCw, Stamp } from 'lucide-react';
import { APPROVAL_MSG, APPROVAL_STATUS_LABELS, APPROVAL_STATUSES, type ApprovalStatus } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { APPROVALS_PAGE_SIZE, useApprovalsList } from '@/features/approvals/api/approvals';
import { ApprovalsTable } from '@/features/approvals/components/approvals-table';
import { shows } from '@/lib/access-visibility';
import { errorMessage } from '@/lib/api-error';
import { useDocumentTitle } from '@/lib/document-title';

/** The status tabs: 'Waiting for approval' reads 'Pending' here, the others as they are. */
const TAB_LABELS: Record<ApprovalStatus, string> = { ...APPROVAL_STATUS_LABELS, pending: 'Pending' };

const EMPTY_TEXT: Record<ApprovalStatus, string> = {
  pending: 'No requests are waiting for a decision.',
  approved: 'No request has been approved yet.',
  rejected: 'No request has been rejected.',
  expired: 'No request has expired.',
  void: 'No request has become void.',
};

function isStatus(value: string | null): value is ApprovalStatus {
  return (APPROVAL_STATUSES as readonly (string | null)[]).includes(value);
}

/** Approvals (administrators): requests for dangerous actions by status, each opening its detail. */
export function ApprovalsPage() {
  useDocumentTitle('Approvals');
  const user = useCurrentUser();
  const allowed = user ? shows(user, 'approvalsPage') : false;
  const [params, setParams] = useSearchParams();
  const status: ApprovalStatus = isStatus(params.get('status')) ? (params.get('status') as ApprovalStatus) : 'pending';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useApprovalsList(status, page, allowed);

  const go = (next: { status?: ApprovalStatus; page?: number }) =>
    setParams(
      (current) => {
        const p = new URLSearchParams(current);
        const s = next.status ?? status;
        if (s === 'pending') p.delete('status');
        else p.set('status', s);
        const n = next.page ?? 1;
        if (n <= 1) p.delete('page');
        else p.set('page', String(n));
        return p;
      },
      { replace: true },
    );

  if (user && !allowed) {
    return (
      <div className="grid gap-6">
        <PageHeader title="Approvals" />
        <Card>
          <EmptyState icon={Lock} title="Access Restricted" description={APPROVAL_MSG.adminsOnly} />
        </Card>
      </div>
    );
  }

  const requests = list.data?.requests ?? [];
  const total = list.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / APPROVALS_PAGE_SIZE));
  const waiting = list.data?.waitingForYou ?? 0;
  const content = (
    <>
      {list.isError && !list.data ? (
        <Card>
          <ErrorState
            title="Could not load the approval requests"
            message={errorMessage(list.error)}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        </Card>
      ) : !list.isLoading && !list.isPlaceholderData && requests.length === 0 ? (
        <Card>
          <EmptyState icon={Stamp} title={EMPTY_TEXT[status]} />
        </Card>
      ) : (
        <ApprovalsTable status={status} requests={requests} loading={list.isLoading || list.isPlaceholderData} />
      )}
      {totalPages > 1 ? (
        <nav aria-label="Approval request pages" className="flex items-center justify-end gap-3">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => go({ page: page - 1 })}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <span className="text-sm text-muted-foreground" aria-live="polite">
            Page {page} of {totalPages}
          </span>
          <Button variant="outline" size="sm" disabled={page >= totalPages} onClick={() => go({ page: page + 1 })}>
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </nav>
      ) : null}
    </>
  );
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Approvals"
        description={
          <>
            Dangerous actions your organization puts behind a second administrator.{' '}
            {list.data ? (
              <span aria-live="polite">
                {waiting === 0 ? 'Nothing is waiting for your decision.' : `${waiting} waiting for your decision.`}
              </span>
            ) : null}
          </>
        }
        actions={
          <Button
            variant="outline"
            onClick={() => void list.refetch()}
            loading={list.isFetching && !list.isLoading}
            loadingText="Refreshing..."
          >
            <RefreshCw aria-hidden="true" />
            Refresh
          </Button>
        }
      />
      <Tabs value={status} onValueChange={(v) => go({ status: isStatus(v) ? v : 'pending' })}>
        <div className="overflow-x-auto pb-1">
          <TabsList aria-label="Request status" className="min-w-max">
            {APPROVAL_STATUSES.map((s) => (
              <TabsTrigger key={s} value={s}>
                {TAB_LABELS[s]}
              </TabsTrigger>
            ))}
          </TabsList>
        </div>
        {APPROVAL_STATUSES.map((s) => (
          <TabsContent key={s} value={s} className="mt-4 grid gap-6">
            {s === status ? content : null}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
