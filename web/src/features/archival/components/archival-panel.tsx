import { useState } from 'react';
import { Archive } from 'lucide-react';
import { ARCHIVAL_MSG } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { useArchivalStats } from '../api/get-archival-stats';
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

/** Administrators: how many logs there are, how many are old enough to archive, and the archival dialog. */
export function ArchivalPanel({ auditLogsKey }: ArchivalPanelProps) {
  const stats = useArchivalStats(true);
  const [open, setOpen] = useState(false);
  const data = stats.data;
  const overdue = (data?.archivableLogsCount ?? 0) > 0;

  return (
    <Card>
      <section aria-labelledby="archival-panel-title">
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
          <h2 id="archival-panel-title" className="text-base font-semibold">
            {ARCHIVAL_MSG.panelTitle}
          </h2>
          <Button variant="outline" onClick={() => setOpen(true)} disabled={!data}>
            <Archive aria-hidden="true" />
            {ARCHIVAL_MSG.archiveButton}
          </Button>
        </CardHeader>
        <CardContent>
          {stats.isError && !data ? (
            <ErrorState
              title={ARCHIVAL_MSG.statsFailed}
              message={isMfaCancelledError(stats.error) ? ARCHIVAL_MSG.statsFailed : errorMessage(stats.error, ARCHIVAL_MSG.statsFailed)}
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
        </CardContent>
      </section>
      <ArchiveDialog open={open} onOpenChange={setOpen} auditLogsKey={auditLogsKey} />
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
