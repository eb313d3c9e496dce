import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { resetMfaRequest, TEAM_MSG, type ManagedUser } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { isApiError, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useResetUserMfa } from '../api/reset-user-mfa';
import { ReasonField } from './reason-field';

const reasonForm = resetMfaRequest.pick({ reason: true });
type ReasonForm = { reason: string };

/** The text of a refused reset: by its code, else the server's text, else the generic one. */
function resetMfaErrorText(error: unknown): string {
  if (isApiError(error) && error.code && error.code in TEAM_MSG.resetMfaCodes) {
    return TEAM_MSG.resetMfaCodes[error.code as keyof typeof TEAM_MSG.resetMfaCodes];
  }
  return error instanceof Error && error.message ? error.message : TEAM_MSG.resetMfaFailed;
}

type ResetMfaDialogProps = { user: ManagedUser | null; onClose: () => void; onReset: (user: ManagedUser) => void };

/**
 * Reset Multi-Factor Authentication?: the warning, a reason of at least 10 characters for the audit log, then
 * the administrator's own code (the MFA prompt). The user's authenticator is removed and they sign in with an
 * emailed code until they set one up again.
 */
export function ResetMfaDialog({ user, onClose, onReset }: ResetMfaDialogProps) {
  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-md">
        {user ? <ResetMfaForm key={user.id} user={user} onClose={onClose} onReset={onReset} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ResetMfaForm({ user, onClose, onReset }: ResetMfaDialogProps & { user: ManagedUser }) {
  const reset = useResetUserMfa();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ReasonForm>({ resolver: zodResolver(reasonForm), defaultValues: { reason: '' } });
  const onSubmit = form.handleSubmit((v) => {
    setFailure(null);
    reset.mutate(
      { userId: user.id, reason: v.reason.trim() },
      {
        onSuccess: (res) => {
          toast.success(TEAM_MSG.mfaReset(user.fullName));
          onReset(res.user);
        },
        onError: (err) => setFailure(isMfaCancelledError(err) ? TEAM_MSG.resetMfaCodes.MFA_REQUIRED : resetMfaErrorText(err)),
      },
    );
  });
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>Reset Multi-Factor Authentication?</DialogTitle>
        <DialogDescription>
          {user.fullName} ({user.email})
        </DialogDescription>
      </DialogHeader>
      <Alert tone="warning">
        Their authenticator app is removed from the account. They will sign in with a code sent to their email until they set up an
        authenticator again. You will be asked for your own verification code.
      </Alert>
      {failure ? <Alert tone={reset.error && isMfaCancelledError(reset.error) ? 'warning' : 'danger'}>{failure}</Alert> : null}
      <ReasonField registration={form.register('reason')} error={form.formState.errors.reason?.message} hint={TEAM_MSG.auditReasonHint} />
      <DialogActions
        onCancel={onClose}
        submitLabel="Reset MFA"
        pendingLabel="Resetting..."
        pending={reset.isPending}
        variant="destructive"
      />
    </form>
  );
}
