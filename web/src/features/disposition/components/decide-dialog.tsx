import { useState } from 'react';
import { Clock, ShieldAlert, Trash2 } from 'lucide-react';
import {
  APPROVAL_MSG,
  DISPOSITION_LIMITS,
  DISPOSITION_MSG,
  MSG,
  type DispositionDecision,
  type DispositionItem,
} from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { FormField } from '@/components/ui/form-field';
import { Input, inputClasses } from '@/components/ui/input';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { cn } from '@/lib/class-names';
import { formatBytes } from '@/lib/format-bytes';
import { toast } from '@/lib/toast';
import { useDecideDisposition } from '../api/disposition';

const TITLES: Record<DispositionDecision, string> = {
  destroy: 'Approve destruction',
  extend: 'Extend retention',
  hold: 'Place legal hold',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;
const day = (iso: string) => iso.slice(0, 10);

/** One year after the current end, as the date field's first value. */
function aYearLater(iso: string): string {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString().slice(0, 10);
}

type DecideDialogProps = {
  item: DispositionItem | null;
  decision: DispositionDecision;
  onOpenChange: (open: boolean) => void;
};

/** A decision on one matter of the review: destroy (files counted, cannot be undone), extend (a date), hold (a reason). */
export function DecideDialog({ item, decision, onOpenChange }: DecideDialogProps) {
  return (
    <Dialog open={item !== null} onOpenChange={onOpenChange}>
      {item ? (
        <DecideForm key={`${item.reviewId}-${decision}`} item={item} decision={decision} onClose={() => onOpenChange(false)} />
      ) : null}
    </Dialog>
  );
}

function DecideForm({ item, decision, onClose }: { item: DispositionItem; decision: DispositionDecision; onClose: () => void }) {
  const mutation = useDecideDisposition();
  const [reason, setReason] = useState('');
  const [retainUntil, setRetainUntil] = useState(aYearLater(item.retentionExpiresAt));
  const [error, setError] = useState<{ tone: 'danger' | 'warning'; text: string } | null>(null);
  const trimmed = reason.trim();
  const reasonOk = trimmed.length >= DISPOSITION_LIMITS.reasonMin && trimmed.length <= DISPOSITION_LIMITS.reasonMax;
  const dateOk = decision !== 'extend' || (retainUntil !== '' && retainUntil > day(item.retentionExpiresAt));

  const submit = () => {
    setError(null);
    mutation.mutate(
      { matterId: item.matterId, decision, reason: trimmed, ...(decision === 'extend' ? { retainUntil } : {}) },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onClose();
        },
        onError: (err) => {
          // Recorded for a second administrator: the app's waiting dialog says so; nothing is done yet.
          if (isApprovalRequiredError(err)) {
            onClose();
            return;
          }
          if (isMfaCancelledError(err)) {
            setError({ tone: 'warning', text: MSG.mfaRequired });
            return;
          }
          setError({ tone: 'danger', text: errorMessage(err, 'The decision could not be saved.') });
        },
      },
    );
  };

  const Icon = decision === 'destroy' ? Trash2 : decision === 'extend' ? Clock : ShieldAlert;
  return (
    <DialogContent className="max-w-lg" hideClose={mutation.isPending}>
      <form
        noValidate
        className="grid gap-5"
        onSubmit={(e) => {
          e.preventDefault();
          if (reasonOk && dateOk) submit();
        }}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <Icon aria-hidden="true" className={cn('size-5', decision === 'destroy' ? 'text-danger' : 'text-primary')} />
            {TITLES[decision]}
          </DialogTitle>
          <DialogDescription>
            {item.matterName}
            {item.matterNumber ? ` (${item.matterNumber})` : ''}: retention ends on {day(item.retentionExpiresAt)}.
          </DialogDescription>
        </DialogHeader>
        {decision === 'destroy' ? (
          <Alert tone="danger">
            {plural(item.files, 'file')} ({plural(item.versions, 'version')}, {formatBytes(item.bytes)}) will be destroyed when the
            retention ends, with a certificate of destruction. {APPROVAL_MSG.cannotBeUndone}
          </Alert>
        ) : null}
        {decision === 'hold' ? (
          <p className="text-sm text-muted-foreground">Nothing of the matter will be destroyed while the legal hold is on.</p>
        ) : null}
        {error ? <Alert tone={error.tone}>{error.text}</Alert> : null}
        {decision === 'extend' ? (
          <FormField
            label="Keep until"
            hint={`A date after ${day(item.retentionExpiresAt)}. The vault's write-once lock is extended too.`}
            error={dateOk ? undefined : DISPOSITION_MSG.retainUntilNotLater}
          >
            {(c) => (
              <Input
                {...c}
                type="date"
                value={retainUntil}
                min={day(item.retentionExpiresAt)}
                onChange={(e) => setRetainUntil(e.target.value)}
              />
            )}
          </FormField>
        ) : null}
        <FormField label="Reason" hint={`At least ${DISPOSITION_LIMITS.reasonMin} characters; it is recorded in the audit log.`}>
          {(c) => (
            <textarea
              {...c}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              rows={3}
              placeholder={decision === 'hold' ? 'e.g. Litigation expected' : 'e.g. Retention policy reviewed'}
              className={cn(inputClasses, 'h-auto min-h-20 resize-y')}
            />
          )}
        </FormField>
        <DialogActions
          onCancel={onClose}
          submitLabel={TITLES[decision]}
          pendingLabel="Saving..."
          pending={mutation.isPending}
          disabled={!reasonOk || !dateOk}
          variant={decision === 'destroy' ? 'destructive' : 'primary'}
        />
      </form>
    </DialogContent>
  );
}
