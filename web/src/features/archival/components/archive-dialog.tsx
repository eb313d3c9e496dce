import { useState } from 'react';
import { ARCHIVAL_MSG, type ArchiveAuditLogsResponse } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage, isMfaCancelledError, isMfaRequiredError } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { toast } from '@/lib/toast';
import { useArchiveAuditLogs } from '../api/archive-audit-logs';

type ArchiveDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  auditLogsKey: readonly unknown[];
  /** A real archival was started (or one was already under way): its run, whose progress the panel follows. */
  onRunStarted: (runId: string) => void;
};

/** A date of the dry run's range, in the reader's words. */
function day(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** What a dry run found: how many entries would be archived, and when they were written. */
function DryRunResult({ result }: { result: ArchiveAuditLogsResponse }) {
  const range = result.range;
  return (
    <div role="status" data-testid="dry-run-result" className="grid gap-1 rounded-md border border-border bg-muted/40 p-3 text-sm">
      <p className="font-medium">
        <span className="sr-only">{ARCHIVAL_MSG.dryRunResultTitle}: </span>
        {ARCHIVAL_MSG.wouldArchive(result.archivedCount)}
      </p>
      {range ? (
        <p className="text-muted-foreground">
          {range.oldest && range.newest
            ? `${ARCHIVAL_MSG.wouldArchiveRange(day(range.oldest), day(range.newest))} ${ARCHIVAL_MSG.wouldArchiveBefore(day(range.before))}`
            : ARCHIVAL_MSG.wouldArchiveNone(day(range.before))}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The archival dialog: a dry run (checked by default) runs at once and only counts, and its result (how many
 * entries would be archived, written between which dates) stays shown in the dialog; unchecked, a warning shows
 * and Archive asks once more in a second 'Confirm archival' dialog before anything moves. Once a real archival
 * is started both close, and the panel follows the run to its end.
 */
export function ArchiveDialog({ open, onOpenChange, auditLogsKey, onRunStarted }: ArchiveDialogProps) {
  const [dryRun, setDryRun] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<ArchiveAuditLogsResponse | null>(null);
  const archive = useArchiveAuditLogs(auditLogsKey);

  const close = () => {
    setConfirming(false);
    setDryRun(true);
    setResult(null);
    onOpenChange(false);
  };

  const run = (asDryRun: boolean) =>
    archive.mutate(asDryRun, {
      onSuccess: (answer) => {
        if (answer.dryRun) {
          toast.success(ARCHIVAL_MSG.dryRunDone(answer.archivedCount));
          setResult(answer);
          return;
        }
        // A real archival runs in the background: the panel shows its progress, and its result when it ends.
        if (answer.runId) onRunStarted(answer.runId);
        else toast.success(ARCHIVAL_MSG.archivalDone(answer.archivedCount));
        close();
      },
      onError: (error) => {
        // Archiving waits for a second administrator: nothing moved yet (the waiting dialog says so).
        if (isApprovalRequiredError(error)) return close();
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
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={dryRun}
              onChange={(e) => {
                setDryRun(e.target.checked);
                setResult(null);
              }}
            />
            {ARCHIVAL_MSG.dryRunLabel}
          </label>
          {!dryRun ? <Alert tone="warning">{ARCHIVAL_MSG.dryRunWarning}</Alert> : null}
          {dryRun && result ? <DryRunResult result={result} /> : null}
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
