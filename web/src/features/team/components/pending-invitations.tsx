import { useState } from 'react';
import { MailPlus, Send, X } from 'lucide-react';
import { ROLE_LABELS, TEAM_MSG, type PendingInvitation } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useResendInvitation, useRevokeInvitation } from '../api/invitation-actions';

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** Invitations not yet accepted, each with Resend (a new link, the old one dead) and Revoke. */
export function PendingInvitations({ invitations, canAct }: { invitations: PendingInvitation[]; canAct: boolean }) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const onError = (err: unknown) => setFailure(isMfaCancelledError(err) ? null : errorMessage(err));
  const busy = resend.isPending || revoke.isPending;

  return (
    <section aria-labelledby="pending-invitations-heading" className="grid gap-3">
      <h3 id="pending-invitations-heading" className="flex items-center gap-2 text-base font-semibold">
        <MailPlus aria-hidden="true" className="size-4 text-muted-foreground" />
        Pending invitations
      </h3>
      {failure ? <Alert tone="danger">{failure}</Alert> : null}
      {invitations.length === 0 ? (
        <p className="text-sm text-muted-foreground">No invitations are waiting to be accepted.</p>
      ) : (
        <ul className="grid gap-2">
          {invitations.map((inv) => (
            <li
              key={inv.id}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-border bg-card px-4 py-3 text-sm"
            >
              <div className="grid min-w-0 flex-1 gap-0.5">
                <span className="truncate font-medium">{inv.email}</span>
                <span className="text-xs text-muted-foreground">
                  {ROLE_LABELS[inv.role].label}
                  {inv.invitedBy ? ` · invited by ${inv.invitedBy.name}` : ''} · expires {formatDate(inv.expiresAt)}
                </span>
              </div>
              {canAct ? (
                <div className="flex gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={busy}
                    aria-label={`Resend invitation to ${inv.email}`}
                    onClick={() => {
                      setFailure(null);
                      resend.mutate(
                        { invitationId: inv.id },
                        { onSuccess: () => toast.success(TEAM_MSG.invitationResent(inv.email)), onError },
                      );
                    }}
                  >
                    <Send aria-hidden="true" />
                    Resend
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={busy}
                    aria-label={`Revoke invitation to ${inv.email}`}
                    onClick={() => {
                      setFailure(null);
                      revoke.mutate({ invitationId: inv.id }, { onSuccess: () => toast.success(TEAM_MSG.invitationRevoked), onError });
                    }}
                  >
                    <X aria-hidden="true" />
                    Revoke
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
