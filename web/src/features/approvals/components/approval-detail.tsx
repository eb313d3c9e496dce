import { Info } from 'lucide-react';
import { APPROVAL_MSG, type ApprovalRequestView } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { useDecideApproval } from '../api/approvals';
import { actionLabel, formatApprovalTime, parameterText } from '../lib/approval-format';
import { ApprovalPreviewView } from './approval-preview';
import { ApprovalStatusBadge } from './approval-status-badge';
import { DecideForm } from './decide-form';

type ApprovalDetailProps = { request: ApprovalRequestView; viewerId: number | undefined };

/** Why there are no decide buttons on a request. */
function whyNoDecision(request: ApprovalRequestView, viewerId: number | undefined): string {
  if (request.status !== 'pending') return APPROVAL_MSG.alreadyDecided(request.status);
  if (viewerId !== undefined && request.requestedBy.userId === viewerId) return APPROVAL_MSG.ownRequest;
  return APPROVAL_MSG.adminsOnly;
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

/** One request: what it would do, who asked and why, the call as recorded, and how it was decided. */
export function ApprovalDetail({ request, viewerId }: ApprovalDetailProps) {
  const decide = useDecideApproval();
  const params = Object.entries(request.call.parameters);
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="grid content-start gap-6">
        <Card>
          <CardHeader>
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="text-lg font-semibold">{actionLabel(request.action, request.actionLabel)}</h2>
              <ApprovalStatusBadge status={request.status} />
            </div>
          </CardHeader>
          <CardContent>
            <ApprovalPreviewView preview={request.preview} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="text-lg font-semibold">The call</h2>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            <p>
              <code className="font-mono break-all">
                {request.call.method} {request.call.path}
              </code>
            </p>
            {params.length > 0 ? (
              <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[minmax(8rem,auto)_1fr]">
                {params.map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="font-mono text-muted-foreground">{k}</dt>
                    <dd className="font-mono break-all">{parameterText(v)}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p className="text-muted-foreground">No parameters.</p>
            )}
          </CardContent>
        </Card>
      </div>
      <div className="grid content-start gap-6">
        <Card>
          <CardHeader>
            <h2 className="text-lg font-semibold">Request</h2>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <Row label="Requested by">
                {request.requestedBy.name}
                <span className="block text-xs font-normal text-muted-foreground">{request.requestedBy.email}</span>
              </Row>
              <Row label="Requested at">{formatApprovalTime(request.requestedAt)}</Row>
              <Row label="Reason">{request.reason ?? <span className="font-normal text-muted-foreground">None given</span>}</Row>
              <Row label="Expires">{formatApprovalTime(request.expiresAt)}</Row>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="text-lg font-semibold">Decision</h2>
          </CardHeader>
          <CardContent className="grid gap-4">
            {request.decidedBy || request.decidedAt || request.executedAt || request.voidReason ? (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                {request.decidedBy ? <Row label="Decided by">{request.decidedBy.name}</Row> : null}
                {request.decidedAt ? <Row label="Decided at">{formatApprovalTime(request.decidedAt)}</Row> : null}
                {request.decisionReason ? <Row label="Their reason">{request.decisionReason}</Row> : null}
                {request.executedAt ? <Row label="Carried out">{formatApprovalTime(request.executedAt)}</Row> : null}
              </dl>
            ) : null}
            {request.voidReason ? <Alert tone="warning">{request.voidReason}</Alert> : null}
            {request.status === 'approved' && !request.executedAt ? <Alert tone="info">{APPROVAL_MSG.approvedPending}</Alert> : null}
            {request.canDecide ? (
              <DecideForm request={request} decide={decide} />
            ) : (
              <p className="flex gap-2 text-sm text-muted-foreground">
                <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                {whyNoDecision(request, viewerId)}
              </p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
