import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { TEAM_LIMITS, TEAM_MSG, type ManagedUser } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { isApiError, isMfaCancelledError } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { useDeactivateUser } from '../api/deactivate-user';
import { toastDeactivation } from './deactivation-grace-toast';
import { ReasonField } from './reason-field';

// The reason is optional here; when given it must say enough for the audit log.
const reasonForm = z.object({
  reason: z
    .string()
    .trim()
    .refine((r) => r.length === 0 || r.length >= TEAM_LIMITS.reasonMin, { error: TEAM_MSG.auditReasonMin })
    .refine((r) => r.length <= TEAM_LIMITS.reasonMax, { error: TEAM_MSG.reasonTooLong }),
});
type ReasonForm = z.infer<typeof reasonForm>;

type DeactivateAccountDialogProps = { user: ManagedUser | null; onClose: () => void; onUndone: () => unknown };

/** Business refusals keep their own words: 'Operation blocked' for the last administrator. */
function deactivateErrorText(error: unknown): { title?: string; text: string } {
  if (isApiError(error) && error.code === 'LAST_ADMIN_ERROR')
    return { title: TEAM_MSG.operationBlocked, text: error.message === TEAM_MSG.operationBlocked ? TEAM_MSG.lastAdmin : error.message };
  if (isApiError(error) && error.message) return { text: error.message };
  return { text: TEAM_MSG.deactivateFailed };
}

/**
 * The stand-alone Deactivate User Account dialog of the team list: deactivates at once (no drawer to save),
 * ending every session of the user; the success toast counts down its 30-second grace with Undo.
 */
export function DeactivateAccountDialog({ user, onClose, onUndone }: DeactivateAccountDialogProps) {
  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-md">
        {user ? <DeactivateForm key={user.id} user={user} onClose={onClose} onUndone={onUndone} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function DeactivateForm({ user, onClose, onUndone }: DeactivateAccountDialogProps & { user: ManagedUser }) {
  const deactivate = useDeactivateUser();
  const [failure, setFailure] = useState<{ title?: string; text: string } | null>(null);
  const form = useForm<ReasonForm>({ resolver: zodResolver(reasonForm), defaultValues: { reason: '' } });
  const onSubmit = form.handleSubmit((v) => {
    setFailure(null);
    deactivate.mutate(
      { userId: user.id, version: user.version, ...(v.reason ? { reason: v.reason } : {}) },
      {
        onSuccess: (res) => {
          toastDeactivation({ title: TEAM_MSG.deactivated }, res, onUndone);
          onClose();
        },
        onError: (err) => {
          // Deactivating an administrator waits for a second administrator (the waiting dialog says so).
          if (isApprovalRequiredError(err)) return onClose();
          if (isMfaCancelledError(err)) return setFailure({ text: TEAM_MSG.resetMfaCodes.MFA_REQUIRED });
          setFailure(deactivateErrorText(err));
        },
      },
    );
  });
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>Deactivate User Account</DialogTitle>
        <DialogDescription>
          {user.fullName} ({user.email})
        </DialogDescription>
      </DialogHeader>
      <Alert tone="warning">{TEAM_MSG.deactivateWarning}</Alert>
      {failure ? (
        <Alert tone="danger" title={failure.title}>
          {failure.text}
        </Alert>
      ) : null}
      <ReasonField
        label="Reason (optional)"
        registration={form.register('reason')}
        error={form.formState.errors.reason?.message}
        hint={TEAM_MSG.auditReasonHint}
      />
      <DialogActions
        onCancel={onClose}
        submitLabel="Deactivate User"
        pendingLabel="Deactivating..."
        pending={deactivate.isPending}
        variant="destructive"
      />
    </form>
  );
}
