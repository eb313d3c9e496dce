import { Archive } from 'lucide-react';
import { DASHBOARD_MSG } from '@strongroom/contracts';
import { useDashboardVaultStatus } from '../api/get-dashboard-vault-status';
import { formatDay } from '../lib/format';
import { Figure, WidgetCard, WidgetError, WidgetSkeleton } from './widget-card';

/** Vaulted matters, retention ending within 90 days (each listed with its date) and legal holds. */
export function VaultStatusWidget() {
  const q = useDashboardVaultStatus();
  return (
    <WidgetCard id="vault-status" title={DASHBOARD_MSG.vaultStatus} icon={Archive} link={{ to: '/vault', label: DASHBOARD_MSG.viewVault }}>
      {q.isPending ? (
        <WidgetSkeleton rows={3} label={DASHBOARD_MSG.vaultStatus} />
      ) : q.isError ? (
        <WidgetError message={DASHBOARD_MSG.vaultStatusFailed} onRetry={() => void q.refetch()} retrying={q.isFetching} />
      ) : (
        <div className="grid gap-4">
          <dl className="grid grid-cols-3 gap-2">
            <Figure label={DASHBOARD_MSG.vaultedMatters} value={q.data.vaultedMatters.toLocaleString()} />
            <Figure label={DASHBOARD_MSG.ninetyDayAlerts} value={q.data.retentionAlerts.toLocaleString()} />
            <Figure label={DASHBOARD_MSG.legalHolds} value={q.data.legalHolds.toLocaleString()} />
          </dl>
          {q.data.alerts.length === 0 ? (
            <p className="text-sm text-muted-foreground">{DASHBOARD_MSG.noAlerts}</p>
          ) : (
            <ul aria-label={DASHBOARD_MSG.ninetyDayAlerts} className="grid grid-cols-1 gap-1">
              {q.data.alerts.map((a) => (
                <li key={a.matterId} className="flex items-center justify-between gap-3 text-sm">
                  <span className="min-w-0 truncate">{a.matterName}</span>
                  <time dateTime={a.retentionExpiresAt} className="shrink-0 text-xs text-muted-foreground">
                    {formatDay(a.retentionExpiresAt)}
                  </time>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </WidgetCard>
  );
}
