import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Bell, FolderPlus, Upload, UserPlus } from 'lucide-react';
import { DASHBOARD_LIMITS, DASHBOARD_MSG, invitableRoles, type SessionUser } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { RecentActivityWidget } from '@/features/dashboard/components/recent-activity-widget';
import { RecentMattersWidget } from '@/features/dashboard/components/recent-matters-widget';
import { SelectMatterDialog, type SelectedMatter } from '@/features/dashboard/components/select-matter-dialog';
import { StorageWidget } from '@/features/dashboard/components/storage-widget';
import { UserManagementWidget } from '@/features/dashboard/components/user-management-widget';
import { VaultStatusWidget } from '@/features/dashboard/components/vault-status-widget';
import { WidgetCard } from '@/features/dashboard/components/widget-card';
import { dashboardQueryKey } from '@/features/dashboard/lib/dashboard-query';
import { CreateMatterDialog } from '@/features/matters/components/create-matter-dialog';
import { NotificationList } from '@/features/notifications';
import { InviteUserDialog } from '@/features/team/components/invite-user-dialog';
import { UploadDialog } from '@/features/uploads/components/upload-dialog';
import { shows } from '@/lib/access-visibility';
import { useDocumentTitle } from '@/lib/document-title';

type DialogName = 'select-matter' | 'upload' | 'create' | 'invite' | null;

/** The header's buttons, each shown by the same rule the server applies to the call it leads to. */
function HeaderActions({ user, open }: { user: SessionUser; open: (d: DialogName) => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      {shows(user, 'inviteUser') ? (
        <Button variant="outline" onClick={() => open('invite')}>
          <UserPlus aria-hidden="true" />
          {DASHBOARD_MSG.inviteUser}
        </Button>
      ) : null}
      {shows(user, 'uploadFiles') ? (
        <Button variant="outline" onClick={() => open('select-matter')}>
          <Upload aria-hidden="true" />
          {DASHBOARD_MSG.uploadFiles}
        </Button>
      ) : null}
      {shows(user, 'newMatter') ? (
        <Button onClick={() => open('create')}>
          <FolderPlus aria-hidden="true" />
          {DASHBOARD_MSG.newMatter}
        </Button>
      ) : null}
    </div>
  );
}

/** The six widgets, each shown by its rule; every widget loads, fails and retries on its own. */
function Widgets({ user, onCreate }: { user: SessionUser; onCreate: () => void }) {
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
      <RecentMattersWidget onCreate={shows(user, 'newMatter') ? onCreate : undefined} />
      <RecentActivityWidget />
      <WidgetCard
        id="notifications"
        title={DASHBOARD_MSG.notifications}
        icon={Bell}
        link={{ to: '/audit-logs', label: DASHBOARD_MSG.viewAll }}
      >
        <NotificationList limit={DASHBOARD_LIMITS.listSize} />
      </WidgetCard>
      {shows(user, 'dashboardVaultStatus') ? <VaultStatusWidget /> : null}
      {shows(user, 'dashboardUsers') ? <UserManagementWidget /> : null}
      {shows(user, 'dashboardStorage') ? <StorageWidget /> : null}
    </div>
  );
}

export function DashboardPage() {
  useDocumentTitle(DASHBOARD_MSG.title);
  const user = useCurrentUser();
  const [dialog, setDialog] = useState<DialogName>(null);
  const [matter, setMatter] = useState<SelectedMatter | null>(null);
  const firstName = user?.displayName.trim().split(/\s+/)[0];
  const queryClient = useQueryClient();
  // A closed dialog may have uploaded, created or invited something: the figures are read again.
  const closeTo = (next: boolean) => {
    if (next) return;
    setDialog(null);
    void queryClient.invalidateQueries({ queryKey: dashboardQueryKey });
  };
  if (!user) return null;
  return (
    // One column never wider than the screen: a long matter name is cut short instead of widening a phone's page.
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title={DASHBOARD_MSG.title}
        description={firstName ? `Welcome back, ${firstName}. This is ${user.organizationName}’s archive.` : 'Welcome back.'}
        actions={<HeaderActions user={user} open={setDialog} />}
      />
      <Widgets user={user} onCreate={() => setDialog('create')} />
      {shows(user, 'uploadFiles') ? (
        <>
          <SelectMatterDialog
            open={dialog === 'select-matter'}
            onOpenChange={closeTo}
            onSelect={(m) => {
              setMatter(m);
              setDialog('upload');
            }}
          />
          {matter ? (
            <UploadDialog
              open={dialog === 'upload'}
              onOpenChange={closeTo}
              organizationId={user.organizationId}
              matterId={matter.id}
              parentId={null}
              folderName={matter.matterName}
            />
          ) : null}
        </>
      ) : null}
      {shows(user, 'newMatter') ? <CreateMatterDialog open={dialog === 'create'} onOpenChange={closeTo} /> : null}
      {shows(user, 'inviteUser') ? (
        <InviteUserDialog open={dialog === 'invite'} onOpenChange={closeTo} roles={invitableRoles(user)} />
      ) : null}
    </div>
  );
}
