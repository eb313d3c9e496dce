import { useState } from 'react';
import { ARCHIVAL_MSG } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage, isMfaCancelledError, isMfaRequiredError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useArchiveAuditLogs } from '../api/archive-audit-logs';

type ArchiveDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  auditLogsKey: readonly unknown[];
};

/**
 * The archival dialog: a dry run (checked by default) runs at once and only counts; unchecked, a warning shows
 * and Archive asks once more in a second 'Confirm archival' dialog before anything moves. Success closes both.
 */
export function ArchiveDialog({ open, onOpenChange, auditLogsKey }: ArchiveDialogProps) {
  const [dryRun, setDryRun] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const archive = useArchiveAuditLogs(auditLogsKey);

  const close = () => {
    setConfirming(false);
    setDryRun(true);
    onOpenChange(false);
  };

  const run = (asDryRun: boolean) =>
    archive.mutate(asDryRun, {
      onSuccess: (answer) => {
        toast.success(answer.dryRun ? ARCHIVAL_MSG.dryRunDone(answer.archivedCount) : ARCHIVAL_MSG.archivalDone(answer.archivedCount));
        close();
      },
      onError: (error) => {
        if (isMfaCancelledError(error) || isMfaRequiredError(error)) return;
        toast.error(ARCHIVAL_MSG.archivalFailed(errorMessage(error, '')));
      },
    });

  return (
    <>
      <Dialog open={open && !confirming} onOpenChange={(o) => (o ? onOpenChange(true) : close())}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{ARCHIVAL_MSG.dialogTitle}</DialogTitle>
            <DialogDescription>{ARCHIVAL_MSG.dialogDescription}</DialogDescription>
          </DialogHeader>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} />
            {ARCHIVAL_MSG.dryRunLabel}
          </label>
          {!dryRun ? <Alert tone="warning">{ARCHIVAL_MSG.dryRunWarning}</Alert> : null}
          <DialogFooter>
            <Button variant="outline" onClick={close}>
              {ARCHIVAL_MSG.cancel}
            </Button>
            {dryRun ? (
              <Button onClick={() => run(true)} loading={archive.isPending} loadingText={ARCHIVAL_MSG.archiving}>
                {ARCHIVAL_MSG.runDryRun}
              </Button>
            ) : (
              <Button variant="destructive" onClick={() => setConfirming(true)}>
                {ARCHIVAL_MSG.archive}
              </Button>
            )}
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Dialog open={open && confirming} onOpenChange={(o) => (o ? null : setConfirming(false))}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{ARCHIVAL_MSG.confirmTitle}</DialogTitle>
            <DialogDescription>{ARCHIVAL_MSG.confirmDescription}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              {ARCHIVAL_MSG.cancel}
            </Button>
            <Button variant="destructive" onClick={() => run(false)} loading={archive.isPending} loadingText={ARCHIVAL_MSG.archiving}>
              {ARCHIVAL_MSG.confirmButton}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
