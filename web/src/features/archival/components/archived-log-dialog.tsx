import { useEffect, useState } from 'react';
import { ARCHIVAL_MSG } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { RetrievalDialogState } from '../hooks/use-archived-retrievals';

type ArchivedLogDialogProps = {
  state: RetrievalDialogState;
  onStart: () => void;
  onClose: () => void;
};

/** m:ss of the time since `since`. */
function elapsedText(since: number, now: number): string {
  const s = Math.max(0, Math.floor((now - since) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return <span className="font-mono tabular-nums">{elapsedText(since, now)}</span>;
}

/** 'Archived Log Details': start a retrieval, watch it run, or see why it failed and try again. */
export function ArchivedLogDialog({ state, onStart, onClose }: ArchivedLogDialogProps) {
  const view = state?.view;
  return (
    <Dialog open={state !== null} onOpenChange={(o) => (o ? null : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{ARCHIVAL_MSG.archivedDialogTitle}</DialogTitle>
          <DialogDescription className="font-mono">{state ? ARCHIVAL_MSG.logId(state.log.id) : null}</DialogDescription>
        </DialogHeader>
        {view?.kind === 'initial' ? (
          <>
            <div className="grid gap-1">
              <h3 className="font-medium">{ARCHIVAL_MSG.retrieveTitle}</h3>
              <p className="text-sm text-muted-foreground">{ARCHIVAL_MSG.retrieveDescription}</p>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={onClose}>
                {ARCHIVAL_MSG.cancel}
              </Button>
              <Button onClick={onStart} loading={view.starting} loadingText={ARCHIVAL_MSG.starting}>
                {ARCHIVAL_MSG.startRetrieval}
              </Button>
            </DialogFooter>
          </>
        ) : null}
        {view?.kind === 'in-progress' ? (
          <>
            <div className="grid gap-3">
              <h3 className="font-medium">{ARCHIVAL_MSG.retrievingTitle}</h3>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                <dt className="text-muted-foreground">{ARCHIVAL_MSG.statusLabel}</dt>
                <dd>
                  <Badge tone="warning">{ARCHIVAL_MSG.inProgress}</Badge>
                </dd>
                <dt className="text-muted-foreground">{ARCHIVAL_MSG.estimatedCompletion}</dt>
                <dd>{view.estimatedCompletionTime ? new Date(view.estimatedCompletionTime).toLocaleTimeString() : '1-5 minutes'}</dd>
                <dt className="text-muted-foreground">{ARCHIVAL_MSG.elapsed}</dt>
                <dd>
                  <Elapsed since={view.startedAt} />
                </dd>
              </dl>
            </div>
            <DialogFooter>
              <Button onClick={onClose}>{ARCHIVAL_MSG.continueInBackground}</Button>
            </DialogFooter>
          </>
        ) : null}
        {view?.kind === 'failed' ? (
          <>
            <Alert tone="danger" title={ARCHIVAL_MSG.retrievalFailedTitle}>
              {view.message}
            </Alert>
            <DialogFooter>
              <Button variant="outline" onClick={onClose}>
                {ARCHIVAL_MSG.close}
              </Button>
              <Button onClick={onStart}>{ARCHIVAL_MSG.tryAgain}</Button>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
