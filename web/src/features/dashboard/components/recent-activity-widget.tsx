import { History } from 'lucide-react';
import { DASHBOARD_MSG } from '@strongroom/contracts';
import { EmptyState } from '@/components/ui/empty-state';
import { useDashboardActivity } from '../api/get-dashboard-activity';
import { formatWhen } from '../lib/format';
import { WidgetCard, WidgetError, WidgetSkeleton } from './widget-card';

/** The 5 newest audit entries the user may see (the server filters them). */
export function RecentActivityWidget() {
  const q = useDashboardActivity();
  return (
    <WidgetCard
      id="recent-activity"
      title={DASHBOARD_MSG.recentActivity}
      icon={History}
      link={{ to: '/audit-logs', label: DASHBOARD_MSG.viewAll }}
    >
      {q.isPending ? (
        <WidgetSkeleton rows={5} label={DASHBOARD_MSG.recentActivity} />
      ) : q.isError ? (
        <WidgetError message={DASHBOARD_MSG.recentActivityFailed} onRetry={() => void q.refetch()} retrying={q.isFetching} />
      ) : q.data.entries.length === 0 ? (
        <EmptyState icon={History} titleAs="h3" title={DASHBOARD_MSG.noRecentActivity} className="py-6" />
      ) : (
        <ul className="grid grid-cols-1 gap-1">
          {q.data.entries.map((e) => (
            <li key={e.id} className="flex items-start justify-between gap-3 rounded-md px-2 py-2">
              {/* The entry in words, as the Audit Logs page says it, with the raw action code under it. */}
              <span className="min-w-0">
                <span className="line-clamp-2 text-sm">{e.summary}</span>
                <span className="block truncate font-mono text-[11px] text-muted-foreground">{e.action}</span>
              </span>
              <time dateTime={e.createdAt} className="shrink-0 text-xs text-muted-foreground">
                {formatWhen(e.createdAt)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </WidgetCard>
  );
}
