import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { MATTER_MSG, type MatterConflictDetails } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { errorMessage, isApiError, isMfaCancelledError } from '@/lib/api-error';
import { conflictField, conflictKind, RESOURCE_MODIFIED } from '@/lib/conflicts';
import type { Matter } from '@/lib/dates';
import { matterDetailQueryKey, mattersQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { toastWithUndo } from '@/lib/undo';
import { matterDetailQueryOptions } from '../api/get-matter-detail';
import { useUpdateMatter } from '../api/update-matter';
import { MatterFields } from './matter-fields';
import { conflictNotice, editMatterForm, matterFormValues, mergeConflict, updateBody, type MatterFormValues } from './matter-form';

type EditMatterDialogProps = { matter: Matter; open: boolean; onOpenChange: (open: boolean) => void };

/**
 * Edit Matter: sends the version last read. A stale one refetches, puts the other change into the fields the
 * user left alone, keeps the user's edits and lets them send again with the new version.
 */
export function EditMatterDialog({ matter, open, onOpenChange }: EditMatterDialogProps) {
  const update = useUpdateMatter();
  const queryClient = useQueryClient();
  // The matter as last read: its version is the one sent, and a conflict replaces it with the newer one.
  const [base, setBase] = useState(matter);
  const hasNumber = Boolean(base.matterNumber);
  const resolver = useMemo(
    () => zodResolver(editMatterForm(hasNumber), undefined, { raw: true }) as Resolver<MatterFormValues>,
    [hasNumber],
  );
  const form = useForm<MatterFormValues>({ resolver, defaultValues: matterFormValues(matter) });
  const [conflict, setConflict] = useState<string | null>(null);

  // Each opening starts from the matter as given, without an earlier conflict notice.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setBase(matter);
      setConflict(null);
    }
  }
  // The fields are filled only when the dialog opens: a refetch after a conflict (a new `matter`) must not wipe
  // what the user typed, so the matter is read at that moment without being a reason to fill them again.
  const fillFields = useEffectEvent(() => form.reset(matterFormValues(matter)));
  useEffect(() => {
    if (open) fillFields();
  }, [open]);

  const onSubmit = form.handleSubmit((v) => {
    update.mutate(updateBody(base, v), {
      onSuccess: (res) => {
        // Undo puts the former values back: the detail and the list are read again.
        toastWithUndo(MATTER_MSG.updated(v.matterName.trim()), res, () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matter.id) }),
            queryClient.invalidateQueries({ queryKey: mattersQueryKey }),
          ]),
        );
        onOpenChange(false);
      },
      // The handler reads the newer matter before it merges: its failures end in the toast below, never unhandled.
      onError: (err) =>
        void (async () => {
          if (isMfaCancelledError(err)) return;
          if (isApiError(err) && conflictKind(err) === 'optimistic-lock') {
            toast.error(RESOURCE_MODIFIED);
            const fresh = await queryClient.fetchQuery({ ...matterDetailQueryOptions(base.id, 'none'), staleTime: 0 }).catch(() => null);
            const theirs = fresh?.matter;
            if (theirs) {
              const merge = mergeConflict(base, theirs, form.getValues());
              // The newer matter becomes the baseline of the next try; the fields the user edited stay dirty.
              setBase(theirs);
              form.reset(matterFormValues(theirs));
              for (const k of merge.edited) form.setValue(k, merge.values[k], { shouldDirty: true });
              setConflict(conflictNotice(merge, (err.details as Partial<MatterConflictDetails> | undefined)?.updatedBy));
            }
            return;
          }
          if (conflictField(err, 'matterNumber') === 'matterNumber') {
            form.setError('matterNumber', { message: MATTER_MSG.matterNumberExists }, { shouldFocus: true });
            return;
          }
          toast.error(`${MATTER_MSG.updateFailed}: ${errorMessage(err)}`);
        })(),
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
          <DialogActions
            onCancel={() => onOpenChange(false)}
            submitLabel="Save Changes"
            pendingLabel="Saving..."
            pending={update.isPending}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
