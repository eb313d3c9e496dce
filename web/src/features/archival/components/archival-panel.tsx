import { useState } from 'react';
import { Archive, ChartColumn } from 'lucide-react';
import { ARCHIVAL_MSG } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-error';
import { getSystemMfaToken, requireSystemMfa } from '@/lib/system-mfa';
import { isStatsLocked, useArchivalStats } from '../api/get-archival-stats';
import { ArchivalRunProgress } from './archival-run-progress';
import { ArchiveDialog } from './archive-dialog';

type ArchivalPanelProps = {
  /** The audit list's query key, read again after an archival. */
  auditLogsKey: readonly unknown[];
};

function formatDate(iso: string | null): string {
  if (!iso) return ARCHIVAL_MSG.never;
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * Administrators: how many logs there are, how many are old enough to archive, the archival dialog, and the
 * progress of an archival running in the background (then its result). The
 * statistics need a verification code, asked for only when the administrator presses 'Show statistics': the page
 * around the panel (list, filters, export) never waits for it. A code verified in the last 30 minutes still
 * holds, so the statistics then show at once.
 */
export function ArchivalPanel({ auditLogsKey }: ArchivalPanelProps) {
  const [unlocked, setUnlocked] = useState(() => getSystemMfaToken('VIEW_ARCHIVAL_STATS') !== null);
  const [asking, setAsking] = useState(false);
  const stats = useArchivalStats(unlocked);
  const [open, setOpen] = useState(false);
  const [followRunId, setFollowRunId] = useState<string | null>(null);
  const data = stats.data;
  const overdue = (data?.archivableLogsCount ?? 0) > 0;
  const locked = !data && (!unlocked || isStatsLocked(stats.error));

  const showStats = async () => {
    setAsking(true);
    try {
      await requireSystemMfa('VIEW_ARCHIVAL_STATS');
    } catch {
      // The prompt was closed (or another one is open): the button stays.
      setAsking(false);
      return;
    }
    setAsking(false);
    if (unlocked) await stats.refetch();
    else setUnlocked(true);
  };

  return (
    <Card>
      <section aria-labelledby="archival-panel-title">
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
          <h2 id="archival-panel-title" className="text-base font-semibold">
            {ARCHIVAL_MSG.panelTitle}
          </h2>
          <Button variant="outline" onClick={() => setOpen(true)}>
            <Archive aria-hidden="true" />
            {ARCHIVAL_MSG.archiveButton}
          </Button>
        </CardHeader>
        <CardContent>
          {locked ? (
            <div className="flex flex-wrap items-center gap-3">
              <p className="text-sm text-muted-foreground">{ARCHIVAL_MSG.statsLockedNote}</p>
              <Button variant="outline" size="sm" onClick={() => void showStats()} loading={asking} loadingText={ARCHIVAL_MSG.showingStats}>
                <ChartColumn aria-hidden="true" />
                {ARCHIVAL_MSG.showStats}
              </Button>
            </div>
          ) : stats.isError && !data ? (
            <ErrorState
              title={ARCHIVAL_MSG.statsFailed}
              message={errorMessage(stats.error, ARCHIVAL_MSG.statsFailed)}
              onRetry={() => void stats.refetch()}
              retrying={stats.isFetching}
              retryLabel={ARCHIVAL_MSG.tryAgain}
              className="py-4"
            />
          ) : (
            <dl className="grid gap-4 sm:grid-cols-4" aria-busy={!data || undefined}>
              <Stat label={ARCHIVAL_MSG.totalLogs} value={data?.totalAuditLogs.toLocaleString()} />
              <Stat label={ARCHIVAL_MSG.archivableLogs} value={data?.archivableLogsCount.toLocaleString()} />
              <Stat label={ARCHIVAL_MSG.lastArchival} value={data ? formatDate(data.lastArchivalDate) : undefined} />
              <Stat
                label={ARCHIVAL_MSG.retentionStatus}
                value={
                  data ? (
                    <Badge tone={overdue ? 'warning' : 'success'}>{overdue ? ARCHIVAL_MSG.overdue : ARCHIVAL_MSG.compliant}</Badge>
                  ) : undefined
                }
              />
            </dl>
          )}
          <ArchivalRunProgress followRunId={followRunId} auditLogsKey={auditLogsKey} />
        </CardContent>
      </section>
      <ArchiveDialog open={open} onOpenChange={setOpen} auditLogsKey={auditLogsKey} onRunStarted={setFollowRunId} />
    </Card>
  );
}

function Stat({ label, value }: { label: string; value: React.ReactNode | undefined }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium text-muted-foreground uppercase">{label}</dt>
      <dd className="text-lg font-semibold">{value ?? <Skeleton className="h-6 w-20" />}</dd>
    </div>
  );
}
