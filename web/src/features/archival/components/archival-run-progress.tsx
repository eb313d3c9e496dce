import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ARCHIVAL_MSG } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { ProgressBar } from '@/components/ui/progress-bar';
import { getSystemMfaToken } from '@/lib/system-mfa';
import { toast } from '@/lib/toast';
import { archivalQueryKey } from '../api/get-archival-stats';
import { runActive, useLatestArchivalRun } from '../api/get-latest-archival-run';

type ArchivalRunProgressProps = {
  /** The run this page started (its progress is followed to the end), or null. */
  followRunId: string | null;
  /** The audit list's query key, read again once the run ends. */
  auditLogsKey: readonly unknown[];
};

/**
 * An archival runs in the background: while it is queued or running, a bar shows the entries archived of those
 * it will archive; when the run this page started (or one seen running here) ends, a toast says how many entries
 * were archived (or that it failed) and the statistics and the list are read again; the result of the run started
 * here stays shown.
 * The progress reads with the token of the archival's class, so it shows when one is held (a run was started in
 * the last 30 minutes), and never asks for a code.
 */
export function ArchivalRunProgress({ followRunId, auditLogsKey }: ArchivalRunProgressProps) {
  const queryClient = useQueryClient();
  const [tokenHeld] = useState(() => getSystemMfaToken('MFA_SYSTEM_OPERATIONS') !== null);
  const latest = useLatestArchivalRun(followRunId !== null || tokenHeld);
  const run = latest.data?.run ?? null;
  const seenActive = useRef(new Set<string>());
  const announced = useRef(new Set<string>());
  const { refetch } = latest;

  useEffect(() => {
    if (followRunId) void refetch();
  }, [followRunId, refetch]);

  const runId = run?.runId;
  const state = run?.state;
  useEffect(() => {
    if (!run || !runId) return;
    if (runActive(run)) {
      seenActive.current.add(runId);
      return;
    }
    if (announced.current.has(runId) || (!seenActive.current.has(runId) && runId !== followRunId)) return;
    announced.current.add(runId);
    if (run.state === 'completed') toast.success(ARCHIVAL_MSG.archivalDone(run.entriesDone));
    else toast.error(ARCHIVAL_MSG.archivalFailed(run.message ?? ''));
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: [...archivalQueryKey, 'stats'] }),
      queryClient.invalidateQueries({ queryKey: [...auditLogsKey] }),
    ]);
    // The run's identity and state decide; its other fields change with every poll.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, state, followRunId]);

  if (!run) return null;
  if (runActive(run)) {
    const pct = run.entriesTotal > 0 ? (run.entriesDone / run.entriesTotal) * 100 : 0;
    return (
      <div role="status" data-testid="archival-progress" className="mt-4 grid gap-2">
        <ProgressBar label={ARCHIVAL_MSG.archivalProgressLabel} value={pct} className="h-2" />
        <p className="text-sm text-muted-foreground">
          {run.state === 'queued' ? ARCHIVAL_MSG.archivalQueued : ARCHIVAL_MSG.archivalProgress(run.entriesDone, run.entriesTotal)}
        </p>
      </div>
    );
  }
  // The result stays shown for the run started here.
  if (run.runId !== followRunId) return null;
  return run.state === 'completed' ? (
    <p role="status" data-testid="archival-result" className="mt-4 text-sm">
      {ARCHIVAL_MSG.archivalDone(run.entriesDone)}
    </p>
  ) : (
    <Alert tone="danger" className="mt-4">
      {ARCHIVAL_MSG.archivalFailed(run.message ?? '')}
    </Alert>
  );
}
