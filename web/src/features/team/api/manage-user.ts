import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PERMISSIONS,
  permissionsForRole,
  TEAM_MSG,
  type ManagedUser,
  type ManageUserRequest,
  type TeamListResponse,
  type UserChangeResponse,
} from '@strongroom/contracts';
import { teamQueryKey, sessionQueryKey } from '../lib/team-query-keys';
import { teamRequest } from './team-request';

/** POST /_api/settings/users/manage: role, status and permissions at once, against the version last read. */
function manageUser(body: ManageUserRequest): Promise<UserChangeResponse> {
  return teamRequest<UserChangeResponse>('/_api/settings/users/manage', body, TEAM_MSG.updateFailed);
}

/** The user as the change will leave them, shown in the list before the server answers. */
function applyChanges(user: ManagedUser, changes: ManageUserRequest['changes']): ManagedUser {
  const role = changes.role ?? user.role;
  const permissions = changes.role
    ? permissionsForRole(DEFAULT_PERMISSIONS, role, changes.permissions)
    : { ...user.permissions, ...changes.permissions };
  const status = changes.isActive === undefined ? user.status : changes.isActive ? 'active' : 'deactivated';
  return { ...user, role, permissions, status };
}

/**
 * The change shows in the list at once and is put back if the server refuses it; the list is read again
 * either way, and the session too (the viewer may have changed their own role or permissions).
 */
export function useManageUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: manageUser,
    meta: { handlesError: true },
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: teamQueryKey });
      const before = queryClient.getQueryData<TeamListResponse>(teamQueryKey);
      if (before) {
        queryClient.setQueryData<TeamListResponse>(teamQueryKey, {
          ...before,
          users: before.users.map((u) => (u.id === body.userId ? applyChanges(u, body.changes) : u)),
        });
      }
      return { before };
    },
    onError: (_error, _body, context) => {
      if (context?.before) queryClient.setQueryData(teamQueryKey, context.before);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamQueryKey }),
        queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      ]),
  });
}
