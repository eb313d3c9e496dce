import { Users } from 'lucide-react';
import { DASHBOARD_MSG } from '@strongroom/contracts';
import { useDashboardUsers } from '../api/get-dashboard-users';
import { Figure, WidgetCard, WidgetError, WidgetSkeleton } from './widget-card';

/** Active users and open invitations, for whoever manages or invites users. */
export function UserManagementWidget() {
  const q = useDashboardUsers();
  return (
    <WidgetCard
      id="user-management"
      title={DASHBOARD_MSG.userManagement}
      icon={Users}
      link={{ to: '/settings?tab=team', label: DASHBOARD_MSG.manageUsers }}
    >
      {q.isPending ? (
        <WidgetSkeleton rows={2} label={DASHBOARD_MSG.userManagement} />
      ) : q.isError ? (
        <WidgetError message={DASHBOARD_MSG.userDataFailed} onRetry={() => void q.refetch()} retrying={q.isFetching} />
      ) : (
        <dl className="grid grid-cols-2 gap-2">
          <Figure label={DASHBOARD_MSG.activeUsers} value={q.data.activeUsers.toLocaleString()} />
          <Figure label={DASHBOARD_MSG.pendingInvites} value={q.data.pendingInvites.toLocaleString()} />
        </dl>
      )}
    </WidgetCard>
  );
}
