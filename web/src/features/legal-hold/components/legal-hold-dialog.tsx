import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { CheckCircle2, ShieldAlert, ShieldOff } from 'lucide-react';
import { MSG, VAULT_LIMITS, VAULT_MSG } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { FormField } from '@/components/ui/form-field';
import { inputClasses } from '@/components/ui/input';
import { errorMessage, isApiError, isMfaCancelledError } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { cn } from '@/lib/class-names';
import { toast } from '@/lib/toast';
import { useUpdateLegalHold } from '../api/update-legal-hold';

type Step = 'form' | 'confirm' | 'done' | 'denied';
type Action = 'apply' | 'remove';

/**
 * The reason as the dialog takes it: applying needs one of at least 10 characters; removing takes none or one of
 * at least 10 characters (the server reads a blank reason as none).
 */
function reasonForm(action: Action) {
  const reason = z
    .string()
    .trim()
    .max(VAULT_LIMITS.holdReasonMax, { error: VAULT_MSG.reasonTooLong })
    .refine((v) => (action === 'remove' && v.length === 0) || v.length >= VAULT_LIMITS.holdReasonMin, { error: VAULT_MSG.reasonTooShort });
  return z.object({ reason });
}
type ReasonForm = { reason: string };

const TEXT: Record<Action, { title: string; description: string; confirm: string; done: string; toast: string }> = {
  apply: {
    title: 'Apply Legal Hold',
    description: 'while the hold is on, nobody can edit, upload to, vault or change the folders and files of this matter.',
    confirm: 'The matter becomes read-only for everyone until an administrator removes the hold.',
    done: 'Legal Hold Applied',
    toast: VAULT_MSG.holdApplied,
  },
  remove: {
    title: 'Remove Legal Hold',
    description: 'removing the hold lets the matter be changed again (a vaulted matter stays vaulted and read-only).',
    confirm: 'The matter is no longer preserved by a hold. Its retention period can end and its files can be deleted then.',
    done: 'Legal Hold Removed',
    toast: VAULT_MSG.holdRemoved,
  },
};

type LegalHoldDialogProps = {
  matter: Matter;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Only administrators may apply or remove a hold; anyone else sees why not. */
  isAdmin: boolean;
};

/** Apply or remove a matter's legal hold: the reason, a confirmation that repeats it, then done. */
export function LegalHoldDialog({ matter, open, onOpenChange, isAdmin }: LegalHoldDialogProps) {
  // The steps mount with each opening, so every opening starts afresh (form, empty reason, no earlier error).
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <LegalHoldSteps matter={matter} isAdmin={isAdmin} onClose={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function LegalHoldSteps({ matter, isAdmin, onClose }: { matter: Matter; isAdmin: boolean; onClose: () => void }) {
  // The action is fixed when the dialog opens, so the done page does not flip when the matter refreshes.
  const [action] = useState<Action>(matter.legalHold ? 'remove' : 'apply');
  const [step, setStep] = useState<Step>(isAdmin ? 'form' : 'denied');
  const [formError, setFormError] = useState<{ tone: 'danger' | 'warning'; text: string } | null>(null);
  const mutation = useUpdateLegalHold();
  const form = useForm<ReasonForm>({ resolver: zodResolver(reasonForm(action)), mode: 'onChange', defaultValues: { reason: '' } });
  const t = TEXT[action];

  const reason = (useWatch({ control: form.control, name: 'reason' }) ?? '').trim();
  const close = onClose;

  const proceed = () => {
    setFormError(null);
    mutation.mutate(
      { matterId: matter.id, action, ...(reason ? { reason } : {}) },
      {
        onSuccess: () => {
          toast.success(t.toast);
          setStep('done');
        },
        onError: (err) => {
          // Recorded for a second administrator: the hold stays until it is approved. The waiting dialog says so.
          if (isApprovalRequiredError(err)) {
            close();
            return;
          }
          if (isApiError(err) && err.status === 403) {
            setStep('denied');
            return;
          }
          setStep('form');
          // Closing the code dialog is a choice, not a failure: say what is needed without alarm.
          if (isMfaCancelledError(err)) {
            setFormError({ tone: 'warning', text: MSG.mfaRequired });
            return;
          }
          const text = errorMessage(err, VAULT_MSG.holdFailed);
          setFormError({ tone: 'danger', text });
          toast.error(text);
        },
      },
    );
  };

  // While the change is on its way the dialog stays: its answer decides the next step.
  const holdOpen = (e: Event) => {
    if (mutation.isPending) e.preventDefault();
  };
  return (
    <DialogContent className="max-w-lg" hideClose={mutation.isPending} onEscapeKeyDown={holdOpen} onInteractOutside={holdOpen}>
      {step === 'denied' ? (
        <div className="grid gap-5">
          <DialogHeader>
            <DialogTitle className="flex items-center gap-2">
              <ShieldAlert aria-hidden="true" className="size-5 text-danger" />
              {VAULT_MSG.holdPermissionTitle}
            </DialogTitle>
            <DialogDescription>{VAULT_MSG.holdPermissionDenied}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button onClick={close}>Close</Button>
          </DialogFooter>
        </div>
      ) : step === 'form' ? (
        <form
          noValidate
          className="grid gap-5"
          onSubmit={form.handleSubmit(() => {
            setFormError(null);
            setStep('confirm');
          })}
        >
          <DialogHeader>
            <DialogTitle>{t.title}</DialogTitle>
            <DialogDescription>
              {matter.matterName}: {t.description}
            </DialogDescription>
          </DialogHeader>
          {formError ? <Alert tone={formError.tone}>{formError.text}</Alert> : null}
          <FormField
            label={action === 'apply' ? 'Reason' : 'Reason (optional)'}
            hint={`At least ${VAULT_LIMITS.holdReasonMin} characters${action === 'remove' ? ' when given' : ''}.`}
            error={form.formState.errors.reason?.message}
          >
            {(c) => (
              <textarea
                {...c}
                {...form.register('reason')}
                rows={4}
                placeholder={action === 'apply' ? 'e.g. Litigation pending: preserve every record' : 'e.g. Litigation settled'}
                className={cn(inputClasses, 'h-auto min-h-24 resize-y')}
              />
            )}
          </FormField>
          <DialogActions
            onCancel={close}
            submitLabel="Continue"
            pendingLabel="Continue"
            pending={false}
            disabled={!form.formState.isValid}
            variant={action === 'apply' ? 'destructive' : 'primary'}
          />
        </form>
      ) : step === 'confirm' ? (
        <div className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Confirm: {t.title}</DialogTitle>
            <DialogDescription>{t.confirm}</DialogDescription>
          </DialogHeader>
          <dl className="grid gap-3 rounded-md border border-border bg-muted/40 p-4 text-sm">
            <div className="grid gap-0.5">
              <dt className="text-xs font-medium text-muted-foreground">Matter</dt>
              <dd className="font-medium">{matter.matterName}</dd>
            </div>
            <div className="grid gap-0.5">
              <dt className="text-xs font-medium text-muted-foreground">Reason</dt>
              <dd className="break-words whitespace-pre-wrap">
                {reason || <span className="text-muted-foreground italic">No reason given</span>}
              </dd>
            </div>
          </dl>
          <DialogFooter>
            <Button variant="outline" onClick={() => setStep('form')} disabled={mutation.isPending}>
              Back
            </Button>
            <Button
              variant={action === 'apply' ? 'destructive' : 'primary'}
              onClick={proceed}
              loading={mutation.isPending}
              loadingText="Processing..."
            >
              Confirm &amp; Proceed
            </Button>
          </DialogFooter>
        </div>
      ) : (
        <div className="grid gap-5">
          <DialogHeader>
            <DialogTitle className="flex items-center gap-2">
              {action === 'apply' ? (
                <CheckCircle2 aria-hidden="true" className="size-5 text-success" />
              ) : (
                <ShieldOff aria-hidden="true" className="size-5 text-success" />
              )}
              {t.done}
            </DialogTitle>
            <DialogDescription>{t.toast}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button onClick={close}>Done</Button>
          </DialogFooter>
        </div>
      )}
    </DialogContent>
  );
}
