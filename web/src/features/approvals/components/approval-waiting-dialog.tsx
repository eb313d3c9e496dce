import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Hourglass } from 'lucide-react';
import { APPROVAL_MSG, type ApprovalRequiredResponse } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { dismissApprovalWaiting, useApprovalWaiting } from '@/lib/approval-required';
import { approvalsQueryKey } from '@/lib/query-keys';
import { formatApprovalTime } from '../lib/approval-format';
import { ApprovalPreviewView } from './approval-preview';

type ApprovalWaitingHostProps = {
  /** A link to the request's page (a member reads their own requests; guests have none). */
  canOpenRequest: boolean;
};

/**
 * Mounted once in the signed-in shell: whenever a governed call answers 202 APPROVAL_REQUIRED (the api client
 * announces it), this says that nothing has changed yet and shows what the request would do.
 */
export function ApprovalWaitingHost({ canOpenRequest }: ApprovalWaitingHostProps) {
  const waiting = useApprovalWaiting();
  const queryClient = useQueryClient();
  const requestId = waiting?.requestId;
  // A new request changes the lists and the badge.
  useEffect(() => {
    if (requestId) void queryClient.invalidateQueries({ queryKey: approvalsQueryKey });
  }, [requestId, queryClient]);
  return <ApprovalWaitingDialog answer={waiting} onClose={dismissApprovalWaiting} canOpenRequest={canOpenRequest} />;
}

type ApprovalWaitingDialogProps = {
  answer: ApprovalRequiredResponse | null;
  onClose: () => void;
  canOpenRequest: boolean;
};

function ApprovalWaitingDialog({ answer, onClose, canOpenRequest }: ApprovalWaitingDialogProps) {
  return (
    <Dialog open={answer !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      {answer ? (
        <DialogContent className="max-h-[90dvh] max-w-xl overflow-y-auto">
          <DialogHeader>
            <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-warning-soft text-warning">
              <Hourglass aria-hidden="true" className="size-5" />
            </div>
            <DialogTitle>Waiting for approval</DialogTitle>
            <DialogDescription>{answer.message || APPROVAL_MSG.waiting}</DialogDescription>
          </DialogHeader>
          <ApprovalPreviewView preview={answer.preview} />
          <p className="text-sm text-muted-foreground">
            The request expires on <span className="font-medium text-foreground">{formatApprovalTime(answer.expiresAt)}</span> if nobody
            decides it.
          </p>
          <DialogFooter>
            {canOpenRequest ? (
              <Button variant="outline" asChild>
                <Link to={`/approvals/${encodeURIComponent(answer.requestId)}`} onClick={onClose}>
                  View the request
                </Link>
              </Button>
            ) : null}
            <Button onClick={onClose}>Done</Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
