import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Settings2, UserMinus, UserPlus, Users } from 'lucide-react';
import {
  invitableRoles,
  permissionsSummary,
  ROLE_LABELS,
  TEAM_LIMITS,
  TEAM_MSG,
  type ManagedUser,
  type SessionUser,
} from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-error';
import { useTeam } from '../api/get-team';
import { teamQueryKey } from '../lib/team-query-keys';
import { DeactivateAccountDialog } from './deactivate-account-dialog';
import { InviteUserDialog } from './invite-user-dialog';
import { StatusBadge } from './member-status-badge';
import { PendingInvitations } from './pending-invitations';
import { UserManageDrawer } from './user-manage-drawer';
import { shows } from '@/lib/access-visibility';

function SummaryBadge({ user }: { user: ManagedUser }) {
  const text = permissionsSummary(user);
  const tone = text === TEAM_MSG.summaryFullAccess ? 'primary' : text === TEAM_MSG.summaryNoAccess ? 'neutral' : 'outline';
  return <Badge tone={tone}>{text}</Badge>;
}

/**
 * The Team & Permissions tab of Settings: the organization's users (User, Role, Status, Permissions, Actions)
 * with a Manage drawer each, Invite User, and the invitations still pending. A viewer who may invite but not
 * manage sees the list read-only.
 */
export function TeamPermissionsTab({ viewer }: { viewer: SessionUser }) {
  const team = useTeam();
  const queryClient = useQueryClient();
  const [managing, setManaging] = useState<string | null>(null);
  const [deactivating, setDeactivating] = useState<ManagedUser | null>(null);
  const [inviteOpen, setInviteOpen] = useState(false);
  const canManage = team.data?.canManage ?? false;
  // Until the list answers, the shared rule decides (the server's check follows the same one).
  const canInvite = team.data?.canInvite ?? shows(viewer, 'inviteUser');
  const roles = team.data?.invitableRoles ?? invitableRoles(viewer);
  const isSelf = (u: ManagedUser) => u.email.toLowerCase() === viewer.email.toLowerCase();

  return (
    <div className="grid gap-8">
      <section aria-labelledby="team-heading" className="grid gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="grid gap-1">
            <h2 id="team-heading" className="text-lg font-semibold">
              Team &amp; Permissions
            </h2>
            <p className="text-sm text-muted-foreground">Roles, account status and permissions of the people in your organization.</p>
          </div>
          {canInvite ? (
            <Button onClick={() => setInviteOpen(true)}>
              <UserPlus aria-hidden="true" />
              Invite User
            </Button>
          ) : null}
        </div>

        {team.isError ? (
          <ErrorState
            title="Could not load the team"
            message={errorMessage(team.error)}
            onRetry={() => void team.refetch()}
            retrying={team.isFetching}
          />
        ) : (
          <Table aria-labelledby="team-heading" aria-busy={team.isPending || undefined}>
            <TableHeader>
              <TableRow>
                <TableHead>User</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Permissions</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {team.isPending ? (
                Array.from({ length: TEAM_LIMITS.tableSkeletonRows }, (_, i) => (
                  <TableRow key={i} data-testid="team-skeleton-row">
                    <TableCell>
                      <Skeleton className="mb-1.5 h-4 w-36" />
                      <Skeleton className="h-3 w-48" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="h-4 w-20" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="h-5 w-16 rounded-full" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="h-5 w-20 rounded-full" />
                    </TableCell>
                    <TableCell>
                      <Skeleton className="ml-auto h-8 w-20" />
                    </TableCell>
                  </TableRow>
                ))
              ) : team.data.users.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={5}>
                    <EmptyState
                      icon={Users}
                      title="No team members yet"
                      description="Invite people to your organization to work together."
                      titleAs="h3"
                    />
                  </TableCell>
                </TableRow>
              ) : (
                team.data.users.map((u) => (
                  <TableRow key={u.id}>
                    <TableCell>
                      <div className="grid gap-0.5">
                        <span className="font-medium">{u.fullName}</span>
                        <span className="text-xs text-muted-foreground">{u.email}</span>
                      </div>
                    </TableCell>
                    <TableCell>{ROLE_LABELS[u.role].label}</TableCell>
                    <TableCell>
                      <StatusBadge status={u.status} />
                    </TableCell>
                    <TableCell>
                      <SummaryBadge user={u} />
                    </TableCell>
                    <TableCell>
                      <div className="flex justify-end gap-2">
                        {canManage && u.status === 'active' && !isSelf(u) ? (
                          <Button variant="ghost" size="icon-sm" aria-label={`Deactivate ${u.fullName}`} onClick={() => setDeactivating(u)}>
                            <UserMinus aria-hidden="true" />
                          </Button>
                        ) : null}
                        <Button variant="outline" size="sm" aria-label={`Manage ${u.fullName}`} onClick={() => setManaging(u.id)}>
                          <Settings2 aria-hidden="true" />
                          Manage
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        )}
      </section>

      {team.data && (team.data.invitations.length > 0 || canInvite) ? (
        <PendingInvitations invitations={team.data.invitations} canAct={canInvite} />
      ) : null}

      <UserManageDrawer userId={managing} viewer={viewer} canManage={canManage} onClose={() => setManaging(null)} />
      <DeactivateAccountDialog
        user={deactivating}
        onClose={() => setDeactivating(null)}
        onUndone={() => queryClient.invalidateQueries({ queryKey: teamQueryKey })}
      />
      {canInvite ? <InviteUserDialog open={inviteOpen} onOpenChange={setInviteOpen} roles={roles} /> : null}
    </div>
  );
}
