import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MATTER_MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import type { Matter } from '@/lib/dates';
import { conflictField } from '@/lib/conflicts';
import { toast } from '@/lib/toast';
import { useCreateMatter } from '../api/create-matter';
import { useNextMatterNumber } from '../api/get-next-matter-number';
import { MatterFields } from './matter-fields';
import { createBody, createMatterForm, EMPTY_MATTER_FORM, type MatterFormValues } from './matter-form';

// The create request's rules and texts; the form keeps what was typed (the body is built by createBody).
const resolver = zodResolver(createMatterForm, undefined, { raw: true }) as Resolver<MatterFormValues>;

/**
 * 'Failed to create matter: {reason}' with the server's reason. An answer that gave none already reads 'Failed to
 * create matter' (the call's own fallback text), which is said once, not twice.
 */
function createFailureText(err: unknown): string {
  const reason = errorMessage(err, '');
  return reason && reason !== MATTER_MSG.createFailed ? `${MATTER_MSG.createFailed}: ${reason}` : MATTER_MSG.createFailed;
}

/** Whether anything was typed: a field filled, or the suggested number changed. */
function isFilled(v: MatterFormValues, suggested: string | null): boolean {
  const number = v.matterNumber.trim();
  return (
    [v.matterName, v.clientName, v.description, v.responsibleLawyer].some((f) => f.trim() !== '') ||
    (number !== '' && number !== (suggested ?? ''))
  );
}

type DiscardDialogProps = { open: boolean; onKeep: () => void; onDiscard: () => void };

/** Asks before a filled New Matter form is thrown away; Keep editing (the first button) goes back to it. */
function DiscardMatterDialog({ open, onKeep, onDiscard }: DiscardDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(o) => (o ? undefined : onKeep())}>
      <DialogContent className="max-w-md" hideClose>
        <DialogHeader>
          <DialogTitle>Discard this new matter?</DialogTitle>
          <DialogDescription>What you have typed will be lost.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onKeep}>
            Keep editing
          </Button>
          <Button variant="destructive" onClick={onDiscard}>
            Discard
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

type CreateMatterDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; onCreated?: (matter: Matter) => void };

export function CreateMatterDialog({ open, onOpenChange, onCreated }: CreateMatterDialogProps) {
  const create = useCreateMatter();
  const form = useForm<MatterFormValues>({ resolver, defaultValues: EMPTY_MATTER_FORM });
  // The number a creation would take now, shown and editable. It is not reserved (see createBody).
  const next = useNextMatterNumber(open);
  const suggested = next.data?.matterNumber ?? null;
  useEffect(() => {
    if (!open || !suggested) return;
    // A newer suggestion replaces an older one until the user types their own.
    if (!form.getFieldState('matterNumber').isDirty) form.setValue('matterNumber', suggested);
  }, [open, suggested, form]);
  useEffect(() => {
    // Without one the field stays empty and the server generates the number on save.
    if (open && next.isError) toast.error(MATTER_MSG.numberGenerationFailed);
  }, [open, next.isError]);

  const [confirming, setConfirming] = useState(false);
  const discard = () => {
    setConfirming(false);
    form.reset(EMPTY_MATTER_FORM);
    create.reset();
    onOpenChange(false);
  };
  // Closing (Cancel, Escape, the x, a click outside) a form with something typed in it asks first.
  const close = (next: boolean) => {
    if (next) onOpenChange(true);
    else if (isFilled(form.getValues(), suggested) && !create.isPending) setConfirming(true);
    else discard();
  };

  const onSubmit = form.handleSubmit((v) => {
    create.mutate(createBody(v, suggested), {
      onSuccess: ({ matter }) => {
        toast.success(MATTER_MSG.created);
        discard();
        onCreated?.(matter);
      },
      onError: (err) => {
        if (isMfaCancelledError(err)) return;
        if (conflictField(err, 'matterNumber') === 'matterNumber') {
          form.setError('matterNumber', { message: MATTER_MSG.matterNumberExists }, { shouldFocus: true });
          return;
        }
        toast.error(createFailureText(err));
      },
    });
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-lg">
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Create New Matter</DialogTitle>
            <DialogDescription>Open a matter to keep its folders and files together.</DialogDescription>
          </DialogHeader>
          <MatterFields
            control={form.control}
            register={form.register}
            errors={form.formState.errors}
            mode="create"
            numberPending={next.isFetching && !suggested}
          />
          <DialogActions onCancel={() => close(false)} submitLabel="Create Matter" pendingLabel="Creating..." pending={create.isPending} />
        </form>
        <DiscardMatterDialog open={confirming} onKeep={() => setConfirming(false)} onDiscard={discard} />
      </DialogContent>
    </Dialog>
  );
}
