import { Link } from 'react-router';
import { FolderKanban, Lock } from 'lucide-react';
import { DASHBOARD_MSG } from '@strongroom/contracts';
import { workspaceHref } from '@/lib/workspace-links';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { useRecentMatters } from '../api/get-recent-matters';
import { formatDay } from '../lib/format';
import { WidgetCard, WidgetError, WidgetSkeleton } from './widget-card';

/** The 5 newest matters the user may see; uploaders are offered 'Create First Matter' while there are none. */
export function RecentMattersWidget({ onCreate }: { onCreate?: () => void }) {
  const q = useRecentMatters();
  return (
    <WidgetCard
      id="recent-matters"
      title={DASHBOARD_MSG.recentMatters}
      icon={FolderKanban}
      link={{ to: '/matters', label: DASHBOARD_MSG.viewAll }}
    >
      {q.isPending ? (
        <WidgetSkeleton rows={5} label={DASHBOARD_MSG.recentMatters} />
      ) : q.isError ? (
        <WidgetError message={DASHBOARD_MSG.recentMattersFailed} onRetry={() => void q.refetch()} retrying={q.isFetching} />
      ) : q.data.matters.length === 0 ? (
        <EmptyState
          icon={FolderKanban}
          titleAs="h3"
          title={DASHBOARD_MSG.noRecentMatters}
          className="py-6"
          action={onCreate ? <Button onClick={onCreate}>{DASHBOARD_MSG.createFirstMatter}</Button> : undefined}
        />
      ) : (
        <ul className="grid grid-cols-1 gap-1">
          {q.data.matters.map((m) => (
            <li key={m.id}>
              <Link
                to={workspaceHref(m.id)}
                className="flex items-center justify-between gap-3 rounded-md px-2 py-2 hover:bg-accent/50 focus-visible:outline-2 focus-visible:outline-ring"
              >
                <span className="min-w-0">
                  <span className="block truncate text-sm font-medium">{m.matterName}</span>
                  <span className="block truncate text-xs text-muted-foreground">
                    {m.matterNumber ?? 'No number'} · {m.clientName ?? 'No client'}
                  </span>
                </span>
                <span className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
                  {m.legalHold ? (
                    <Badge tone="warning">
                      <Lock aria-hidden="true" className="size-3" />
                      Legal Hold
                    </Badge>
                  ) : null}
                  {formatDay(m.createdAt)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </WidgetCard>
  );
}
