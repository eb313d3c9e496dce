import { useState } from 'react';
import { type ManagedUser, type ManageUserRequest, type PermissionKey, type Role } from '@strongroom/contracts';
import { changesOf, drawerValues, manageBody, withPermission, withRole, type DrawerValues } from '../lib/drawer-form';

/** A status change waiting for its confirmation. */
type StatusAction = 'deactivate' | 'reactivate';

/**
 * What the Manage drawer edits of one member: the user as last read (its version is the one saved against),
 * the role, status and permission switches as edited, the reason given for a role change, and the role or
 * status change waiting for its confirmation. Going back to the stored role or status needs no confirmation;
 * the stored role comes back with its stored switches and needs no reason.
 */
export function useMemberDraft() {
  const [base, setBase] = useState<ManagedUser | null>(null);
  const [values, setValues] = useState<DrawerValues | null>(null);
  const [roleReason, setRoleReason] = useState<string | undefined>(undefined);
  const [pendingRole, setPendingRole] = useState<Role | null>(null);
  const [pendingStatus, setPendingStatus] = useState<StatusAction | null>(null);

  const changes = base && values ? changesOf(base, values) : null;

  return {
    base,
    values,
    changes,
    /** Whether the form differs from the user as last read. */
    dirty: changes !== null,
    pendingRole,
    pendingStatus,
    /** Starts the form from the user as read. */
    start: (user: ManagedUser) => {
      setBase(user);
      setValues(drawerValues(user));
    },
    /** Puts the form back to the user as stored now, and forgets the reason of a role change. */
    reset: (user: ManagedUser) => {
      setBase(user);
      setValues(drawerValues(user));
      setRoleReason(undefined);
    },
    /** The user got a new version outside the form (a reset of their MFA): later saves go against it, the edits stay. */
    rebase: (user: ManagedUser) => setBase(user),
    clear: () => {
      setBase(null);
      setValues(null);
      setRoleReason(undefined);
    },
    chooseRole: (role: Role) => {
      if (!values || !base || role === values.role) return;
      if (role === base.role) {
        setValues({ ...values, role, permissions: { ...base.permissions } });
        setRoleReason(undefined);
      } else setPendingRole(role);
    },
    /** The role change confirmed with its reason: the switches go to that role's defaults. */
    confirmRole: (reason: string) => {
      if (values && pendingRole) setValues(withRole(values, pendingRole));
      setRoleReason(reason);
      setPendingRole(null);
    },
    cancelRole: () => setPendingRole(null),
    setActive: (on: boolean) => {
      if (!values || !base) return;
      if (on === (base.status === 'active')) setValues({ ...values, isActive: on });
      else setPendingStatus(on ? 'reactivate' : 'deactivate');
    },
    confirmStatus: () => {
      if (values) setValues({ ...values, isActive: pendingStatus === 'reactivate' });
      setPendingStatus(null);
    },
    cancelStatus: () => setPendingStatus(null),
    setPermission: (key: PermissionKey, on: boolean) => {
      if (values) setValues(withPermission(values, key, on));
    },
    /** The save request of the changes, against the version last read, or null when there is nothing to save. */
    request: (updatedBy: string): ManageUserRequest | null => (base && changes ? manageBody(base, changes, updatedBy, roleReason) : null),
  };
}

export type MemberDraft = ReturnType<typeof useMemberDraft>;
