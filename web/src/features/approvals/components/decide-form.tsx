import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Check, X } from 'lucide-react';
import { APPROVAL_LIMITS, MSG, type ApprovalRequestView } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { inputClasses } from '@/components/ui/input';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { cn } from '@/lib/class-names';
import { toast } from '@/lib/toast';
import type { useDecideApproval } from '../api/approvals';
import { decideFormSchema, type DecideFormValues } from '../lib/decide-form';

type DecideFormProps = {
  request: ApprovalRequestView;
  /** Held by the detail view: a decision re-renders the request without this form, and the toast must still come. */
  decide: ReturnType<typeof useDecideApproval>;
};

/**
 * Approve (the api client asks for a fresh code of the approver's second factor) or reject (a reason is needed).
 * Shown only for a request the caller may decide.
 */
export function DecideForm({ request, decide }: DecideFormProps) {
  const [failure, setFailure] = useState<{ tone: 'danger' | 'warning'; text: string } | null>(null);
  const form = useForm<DecideFormValues>({
    resolver: zodResolver(decideFormSchema),
    defaultValues: { decision: 'approve', reason: '' },
  });
  const decision = useWatch({ control: form.control, name: 'decision' });

  const send = form.handleSubmit((values) => {
    setFailure(null);
    const reason = values.reason.trim();
    decide.mutate(
      { requestId: request.requestId, decision: values.decision, ...(reason ? { reason } : {}) },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          form.reset({ decision: 'approve', reason: '' });
        },
        onError: (err) => {
          // Closing the code dialog is a choice: say what approving needs, without alarm.
          if (isMfaCancelledError(err)) return setFailure({ tone: 'warning', text: MSG.mfaRequired });
          setFailure({ tone: 'danger', text: errorMessage(err) });
        },
      },
    );
  });

  const submitAs = (d: 'approve' | 'reject') => {
    form.setValue('decision', d);
    // A reason error from an attempt to reject is not an error for approving.
    if (d === 'approve') form.clearErrors('reason');
    void send();
  };

  const pending = decide.isPending;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submitAs('approve');
      }}
      noValidate
      className="grid gap-4"
      aria-label="Decide the request"
    >
      {failure ? <Alert tone={failure.tone}>{failure.text}</Alert> : null}
      <FormField
        label="Reason"
        hint={`Needed to reject; optional to approve. Up to ${APPROVAL_LIMITS.reasonMax} characters.`}
        error={form.formState.errors.reason?.message}
      >
        {(c) => (
          <textarea
            {...c}
            {...form.register('reason')}
            rows={3}
            placeholder="e.g. Not agreed with the client yet"
            className={cn(inputClasses, 'h-auto min-h-20 resize-y')}
          />
        )}
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button
          type="button"
          variant="destructive"
          onClick={() => submitAs('reject')}
          loading={pending && decision === 'reject'}
          loadingText="Rejecting..."
          disabled={pending}
        >
          <X aria-hidden="true" />
          Reject
        </Button>
        <Button type="submit" loading={pending && decision === 'approve'} loadingText="Approving..." disabled={pending}>
          <Check aria-hidden="true" />
          Approve
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">Approving asks for a fresh code from your authenticator or email, every time.</p>
    </form>
  );
}
