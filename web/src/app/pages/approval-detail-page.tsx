import { Link, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { useApprovalDetail } from '@/features/approvals/api/approvals';
import { ApprovalDetail } from '@/features/approvals/components/approval-detail';
import { errorMessage } from '@/lib/api-error';
import { useDocumentTitle } from '@/lib/document-title';

/** /approvals/:requestId: one request with its preview and, for another administrator, Approve and Reject. */
export function ApprovalDetailPage() {
  const { requestId } = useParams();
  const user = useCurrentUser();
  const detail = useApprovalDetail(requestId);
  const request = detail.data?.request;
  useDocumentTitle(request ? `Approval: ${request.preview.title}` : 'Approval request');
  return (
    <div className="grid grid-cols-1 gap-6">
      <div>
        <Button variant="ghost" size="sm" asChild>
          <Link to="/approvals">
            <ArrowLeft aria-hidden="true" />
            All requests
          </Link>
        </Button>
      </div>
      <PageHeader title={request ? request.preview.title : 'Approval request'} />
      {detail.isError && !request ? (
        <Card>
          <ErrorState
            title="Could not load the request"
            message={errorMessage(detail.error)}
            onRetry={() => void detail.refetch()}
            retrying={detail.isFetching}
          />
        </Card>
      ) : request ? (
        <ApprovalDetail request={request} viewerId={user?.id} />
      ) : (
        <div role="status" aria-label="Loading the request" className="grid gap-6 lg:grid-cols-[3fr_2fr]">
          <Skeleton className="h-72" />
          <Skeleton className="h-72" />
        </div>
      )}
    </div>
  );
}
