import { HardDrive, ScrollText } from 'lucide-react';
import { DASHBOARD_MSG, type DashboardStorageResponse } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { formatBytes } from '@/lib/format-bytes';
import { useArchivableLogs } from '../api/get-archivable-logs';
import { useDashboardStorage } from '../api/get-dashboard-storage';
import { Figure, WidgetCard, WidgetError, WidgetSkeleton } from './widget-card';

function StorageFigures({ data }: { data: DashboardStorageResponse }) {
  const share = data.quotaBytes ? Math.min(100, Math.round((data.totalBytes / data.quotaBytes) * 100)) : null;
  return (
    <div className="grid gap-3">
      <dl className="grid gap-2">
        <Figure
          label={DASHBOARD_MSG.totalStorageUsed}
          value={formatBytes(data.totalBytes)}
          hint={data.quotaBytes !== null ? DASHBOARD_MSG.ofQuota(formatBytes(data.quotaBytes)) : DASHBOARD_MSG.noQuota}
        />
      </dl>
      {share !== null ? <ProgressBar label={DASHBOARD_MSG.totalStorageUsed} value={share} className="h-2" /> : null}
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">{DASHBOARD_MSG.hotStorage}</dt>
          <dd className="font-medium tabular-nums">{formatBytes(data.hotBytes)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{DASHBOARD_MSG.vaultedStorage}</dt>
          <dd className="font-medium tabular-nums">{formatBytes(data.vaultedBytes)}</dd>
        </div>
      </dl>
    </div>
  );
}

/** The archivable logs figure, read only on request: the statistics may ask for a verification code. */
function ArchivableLogs() {
  const stats = useArchivableLogs();
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-border pt-4">
      <span className="text-sm font-medium">{DASHBOARD_MSG.archivableLogs}</span>
      {stats.data ? (
        <span className="text-lg font-semibold tabular-nums" data-testid="archivable-logs">
          {stats.data.archivableLogsCount.toLocaleString()}
        </span>
      ) : (
        <Button variant="outline" size="sm" loading={stats.isPending} onClick={() => stats.mutate()}>
          <ScrollText aria-hidden="true" />
          {DASHBOARD_MSG.showArchivable}
        </Button>
      )}
      {stats.isError && !isMfaCancelledError(stats.error) ? (
        <p role="alert" className="w-full text-sm text-danger">
          {DASHBOARD_MSG.archivableFailed}: {errorMessage(stats.error)}
        </p>
      ) : null}
    </div>
  );
}

/** Stored bytes (active and vaulted apart) against the quota, and the archivable logs: administrators only. */
export function StorageWidget() {
  const q = useDashboardStorage();
  return (
    <WidgetCard
      id="storage-usage"
      title={DASHBOARD_MSG.storageUsage}
      icon={HardDrive}
      link={{ to: '/audit-logs', label: DASHBOARD_MSG.details }}
    >
      {q.isPending ? (
        <WidgetSkeleton rows={3} label={DASHBOARD_MSG.storageUsage} />
      ) : q.isError ? (
        <WidgetError message={DASHBOARD_MSG.storageDataFailed} onRetry={() => void q.refetch()} retrying={q.isFetching} />
      ) : (
        <StorageFigures data={q.data} />
      )}
      <ArchivableLogs />
    </WidgetCard>
  );
}
