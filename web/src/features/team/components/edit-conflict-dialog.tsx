import { TEAM_MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';

export type EditConflict = { name: string; updatedAt: string | null };

type EditConflictDialogProps = { conflict: EditConflict | null; onClose: () => void };

function formatTime(iso: string | null): string {
  if (!iso) return 'Unknown time';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'Unknown time' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Someone else saved the user first: who and when, and that the form now shows their version. */
export function EditConflictDialog({ conflict, onClose }: EditConflictDialogProps) {
  return (
    <Dialog open={conflict !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{TEAM_MSG.conflictTitle}</DialogTitle>
          <DialogDescription>{TEAM_MSG.conflict}</DialogDescription>
        </DialogHeader>
        {conflict ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border border-border bg-muted/40 px-3.5 py-3 text-sm">
            <dt className="text-muted-foreground">Last updated by</dt>
            <dd className="font-medium">{conflict.name}</dd>
            <dt className="text-muted-foreground">At</dt>
            <dd>
              <time dateTime={conflict.updatedAt ?? undefined}>{formatTime(conflict.updatedAt)}</time>
            </dd>
          </dl>
        ) : null}
        <p className="text-sm text-muted-foreground">
          The form has been refreshed with the latest details. Review them and make your changes again.
        </p>
        <DialogFooter>
          <Button onClick={onClose}>OK</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
