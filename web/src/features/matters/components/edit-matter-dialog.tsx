import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { MATTER_LIMITS, MATTER_MSG, MATTER_NUMBER_PATTERN, type MatterDto, type UpdateMatterRequest } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage, isApiError, isMfaCancelledError } from '@/lib/api-error';
import { RESOURCE_MODIFIED } from '@/lib/conflicts';
import { matterDetailQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { useUpdateMatter } from '../api/update-matter';
import { MatterFields, type MatterFormValues } from './matter-fields';

const editForm = z.object({
  matterName: z.string().trim().min(1, { error: MATTER_MSG.matterNameRequired }).max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.matterNameTooLong }),
  matterNumber: z.string().trim().refine((v) => v === '' || MATTER_NUMBER_PATTERN.test(v), { error: MATTER_MSG.matterNumberFormat }),
  clientName: z.string().trim().max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.clientNameTooLong }),
  description: z.string().max(MATTER_LIMITS.descriptionMax, { error: MATTER_MSG.descriptionTooLong }),
  responsibleLawyer: z.string().trim().max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.lawyerNameTooLong }),
});

function valuesOf(m: MatterDto): MatterFormValues {
  return {
    matterName: m.matterName,
    matterNumber: m.matterNumber ?? '',
    clientName: m.clientName ?? '',
    description: m.description ?? '',
    responsibleLawyer: m.responsibleLawyer ?? '',
  };
}

const LABELS: Record<keyof MatterFormValues, string> = {
  matterName: 'Matter Name',
  matterNumber: 'Matter Number',
  clientName: 'Client Name',
  description: 'Description',
  responsibleLawyer: 'Responsible Attorney',
};

type EditMatterDialogProps = { matter: MatterDto; open: boolean; onOpenChange: (open: boolean) => void };

/**
 * Edit Matter: sends the version last read. A stale one refetches, puts the other change into the fields the
 * user left alone, keeps the user's edits and lets them send again with the new version.
 */
export function EditMatterDialog({ matter, open, onOpenChange }: EditMatterDialogProps) {
  const update = useUpdateMatter();
  const queryClient = useQueryClient();
  const form = useForm<MatterFormValues>({ resolver: zodResolver(editForm), defaultValues: valuesOf(matter) });
  const [conflict, setConflict] = useState<string | null>(null);

  useEffect(() => {
    if (open) {
      form.reset(valuesOf(matter));
      setConflict(null);
    }
    // Only when the dialog opens: a refetch after a conflict must not wipe what the user typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const onSubmit = form.handleSubmit((v) => {
    const body: UpdateMatterRequest = { matterId: matter.id, expectedVersion: matter.version, matterName: v.matterName.trim() };
    // Empty optional values are sent as absent (spec section 5); an emptied description clears it.
    if (v.matterNumber.trim()) body.matterNumber = v.matterNumber.trim();
    if (v.clientName.trim()) body.clientName = v.clientName.trim();
    if (v.responsibleLawyer.trim()) body.responsibleLawyer = v.responsibleLawyer.trim();
    if (v.description.trim() !== (matter.description ?? '')) body.description = v.description.trim();
    update.mutate(body, {
      onSuccess: () => {
        toast.success(`${v.matterName.trim()} was updated.`);
        onOpenChange(false);
      },
      onError: async (err) => {
        if (isMfaCancelledError(err)) return;
        if (isApiError(err) && err.status === 409 && err.message === MATTER_MSG.versionMismatch) {
          toast.error(RESOURCE_MODIFIED);
          const fresh = await queryClient.fetchQuery({ queryKey: matterDetailQueryKey(matter.id), staleTime: 0 }).catch(() => null);
          const theirs = (fresh as { matter?: MatterDto } | null)?.matter;
          if (theirs) {
            const keys = Object.keys(LABELS) as (keyof MatterFormValues)[];
            const before = valuesOf(matter);
            const now = valuesOf(theirs);
            const mine = form.getValues();
            const changed = keys.filter((k) => before[k] !== now[k]);
            const edited = keys.filter((k) => mine[k] !== before[k]);
            // Fields the user did not touch take the other change, so saving again does not undo it; the
            // user's own edits stay on top. The new version becomes the form's baseline for the next try.
            form.reset(now);
            for (const k of edited) form.setValue(k, mine[k], { shouldDirty: true });
            const both = edited.filter((k) => changed.includes(k));
            const who = (err.details as { updatedBy?: string | null } | undefined)?.updatedBy;
            const names = (ks: (keyof MatterFormValues)[]) => ks.map((k) => LABELS[k]).join(', ');
            setConflict(
              `${who ? `${who} changed` : 'Someone changed'} ${changed.length ? names(changed) : 'this matter'}. ` +
                (both.length ? `You changed ${names(both)} too: your version is kept. ` : '') +
                'The form now has their changes and yours: check them and save again.',
            );
          }
          return;
        }
        if (isApiError(err) && err.status === 409 && err.message.includes('already exists')) {
          form.setError('matterNumber', { message: MATTER_MSG.matterNumberExists }, { shouldFocus: true });
          return;
        }
        toast.error(`${MATTER_MSG.updateFailed}: ${errorMessage(err)}`);
      },
    });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Edit Matter</DialogTitle>
            <DialogDescription>Change the details of {matter.matterName}.</DialogDescription>
          </DialogHeader>
          {conflict ? <Alert tone="warning">{conflict}</Alert> : null}
          <MatterFields control={form.control} register={form.register} errors={form.formState.errors} mode="edit" />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending} loadingText="Saving...">
              Save Changes
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
