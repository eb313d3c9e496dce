import { useEffect, useMemo, useState } from 'react';
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
import { matterDetailQueryKey, mattersQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { toastWithUndo } from '@/lib/undo';
import { useUpdateMatter } from '../api/update-matter';
import { MatterFields, type MatterFormValues } from './matter-fields';

/**
 * The Edit Matter form. The number identifies the matter: once it has one, it can be changed but not emptied.
 * Client and lawyer are optional and may be emptied.
 */
export function editMatterForm(hasNumber: boolean) {
  return z.object({
    matterName: z
      .string()
      .trim()
      .min(1, { error: MATTER_MSG.editMatterNameRequired })
      .max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.matterNameTooLong }),
    matterNumber: z
      .string()
      .trim()
      .refine((v) => v !== '' || !hasNumber, { error: MATTER_MSG.matterNumberNotRemovable, abort: true })
      .refine((v) => v === '' || MATTER_NUMBER_PATTERN.test(v), { error: MATTER_MSG.matterNumberFormat }),
    clientName: z.string().trim().max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.clientNameTooLong }),
    description: z.string().max(MATTER_LIMITS.descriptionMax, { error: MATTER_MSG.editDescriptionTooLong }),
    responsibleLawyer: z.string().trim().max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.lawyerNameTooLong }),
  });
}

/**
 * The update request for the form's values against the matter as last read: unchanged fields are left out, and
 * an emptied client, lawyer or description is sent as null / '' so the server clears it. A field that was
 * already empty and stays empty is absent.
 */
export function updateBody(matter: MatterDto, v: MatterFormValues): UpdateMatterRequest {
  const body: UpdateMatterRequest = { matterId: matter.id, expectedVersion: matter.version, matterName: v.matterName.trim() };
  const number = v.matterNumber.trim();
  if (number && number !== matter.matterNumber) body.matterNumber = number;
  const client = v.clientName.trim();
  if (client !== (matter.clientName ?? '')) body.clientName = client === '' ? null : client;
  const lawyer = v.responsibleLawyer.trim();
  if (lawyer !== (matter.responsibleLawyer ?? '')) body.responsibleLawyer = lawyer === '' ? null : lawyer;
  if (v.description.trim() !== (matter.description ?? '')) body.description = v.description.trim();
  return body;
}

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
  const hasNumber = Boolean(matter.matterNumber);
  const schema = useMemo(() => editMatterForm(hasNumber), [hasNumber]);
  const form = useForm<MatterFormValues>({ resolver: zodResolver(schema), defaultValues: valuesOf(matter) });
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
    update.mutate(updateBody(matter, v), {
      onSuccess: (res) => {
        // Undo puts the former values back: the detail and the list are read again.
        toastWithUndo(`${v.matterName.trim()} was updated.`, res, () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matter.id) }),
            queryClient.invalidateQueries({ queryKey: mattersQueryKey }),
          ]),
        );
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
