import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import {
  PERMISSION_KEYS,
  PERMISSION_LABELS,
  ROLE_LABELS,
  ROLES,
  TEAM_LIMITS,
  TEAM_MSG,
  type ManagedUser,
  type Role,
  type SessionUser,
} from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/error-state';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { isApiError, isMfaCancelledError } from '@/lib/api-error';
import { conflictKind } from '@/lib/conflicts';
import { toast } from '@/lib/toast';
import { toastWithUndo } from '@/lib/undo';
import { teamQueryOptions } from '../api/get-team';
import { useManageUser } from '../api/manage-user';
import {
  changesOf,
  conflictDataOf,
  drawerValues,
  manageBody,
  manageErrorText,
  retryAfterSeconds,
  withPermission,
  withRole,
  type DrawerValues,
} from '../lib/drawer-form';
import { sessionQueryKey, teamQueryKey } from '../lib/team-query-keys';
import { toastDeactivation } from './deactivation-grace-toast';
import { EditConflictDialog, type EditConflict } from './edit-conflict-dialog';
import { GuestAccessSection } from './guest-access-section';
import { ResetMfaDialog } from './reset-mfa-dialog';
import { RoleChangeDialog } from './role-change-dialog';
import { StatusConfirmDialog } from './status-confirm-dialog';

type UserManageDrawerProps = {
  /** The user to manage, or null while the drawer is closed. */
  userId: string | null;
  viewer: SessionUser;
  /** Whether the viewer may change users (canManageUsers); otherwise the drawer only shows them. */
  canManage: boolean;
  onClose: () => void;
};

type Failure = { title?: string; text: string; tone: 'danger' | 'warning' };

export function StatusBadge({ status }: { status: ManagedUser['status'] }) {
  return status === 'active' ? <Badge tone="success">Active</Badge> : <Badge tone="danger">Deactivated</Badge>;
}

/**
 * The Manage drawer of a team member: role (with its default switches), account status, Reset MFA, the eight
 * permission switches, and Save Changes against the version last read. It reads the user afresh each time it
 * opens, showing the loading state for at least 300 ms.
 */
export function UserManageDrawer({ userId, viewer, canManage, onClose }: UserManageDrawerProps) {
  const queryClient = useQueryClient();
  const manage = useManageUser();
  // Each opening reads the team again and waits the loading delay; both are keyed by the user opened.
  const [delayDoneFor, setDelayDoneFor] = useState<string | null>(null);
  const [fetchedFor, setFetchedFor] = useState<string | null>(null);
  const [fetchError, setFetchError] = useState<unknown>(null);
  // The user as last read (its version is the one saved against) and the form over it.
  const [base, setBase] = useState<ManagedUser | null>(null);
  const [values, setValues] = useState<DrawerValues | null>(null);
  const [roleReason, setRoleReason] = useState<string | undefined>(undefined);
  const [pendingRole, setPendingRole] = useState<Role | null>(null);
  const [pendingStatus, setPendingStatus] = useState<'deactivate' | 'reactivate' | null>(null);
  const [resetOpen, setResetOpen] = useState(false);
  const [conflict, setConflict] = useState<EditConflict | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [waitSeconds, setWaitSeconds] = useState(0);

  useEffect(() => {
    if (userId === null) return;
    const timer = setTimeout(() => setDelayDoneFor(userId), TEAM_LIMITS.drawerLoadingDelayMs);
    let live = true;
    queryClient.fetchQuery({ ...teamQueryOptions(), staleTime: 0 }).then(
      () => live && setFetchedFor(userId),
      (err: unknown) => {
        if (!live) return;
        setFetchError(err);
        setFetchedFor(userId);
      },
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [userId, queryClient]);

  // Save stays disabled while the server's wait after a rate-limit refusal runs.
  useEffect(() => {
    if (waitSeconds <= 0) return;
    const t = setTimeout(() => setWaitSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => clearTimeout(t);
  }, [waitSeconds]);

  const loading = userId !== null && (delayDoneFor !== userId || fetchedFor !== userId);
  const fresh = userId ? queryClient.getQueryData<{ users: ManagedUser[] }>(teamQueryKey)?.users.find((u) => u.id === userId) : undefined;
  if (!loading && fresh && base?.id !== fresh.id) {
    setBase(fresh);
    setValues(drawerValues(fresh));
  }

  const changes = base && values ? changesOf(base, values) : null;
  const dirty = changes !== null;
  const isSelf = base !== null && base.email.toLowerCase() === viewer.email.toLowerCase();

  const closeNow = () => {
    setBase(null);
    setValues(null);
    setRoleReason(undefined);
    setFailure(null);
    setFetchError(null);
    setDelayDoneFor(null);
    setFetchedFor(null);
    onClose();
  };
  // Closing with unsaved changes asks first.
  const requestClose = () => {
    if (dirty && !window.confirm(TEAM_MSG.unsavedChangesConfirm)) return;
    closeNow();
  };

  /** Reads the user again and puts the form back to what is stored (after a conflict or a reset). */
  const refresh = async (): Promise<void> => {
    const data = await queryClient.fetchQuery({ ...teamQueryOptions(), staleTime: 0 }).catch(() => null);
    const latest = data?.users.find((u) => u.id === userId);
    if (latest) {
      setBase(latest);
      setValues(drawerValues(latest));
      setRoleReason(undefined);
    }
  };

  const save = () => {
    if (!base || !values) return;
    if (!changes) {
      toast.info(TEAM_MSG.noChanges);
      return;
    }
    setFailure(null);
    const name = base.fullName;
    manage.mutate(manageBody(base, changes, viewer.displayName, roleReason), {
      onSuccess: (res) => {
        const refreshAfterUndo = () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: teamQueryKey }),
            queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
          ]);
        // Who was updated, with the confirmation beneath it; a deactivation counts down its grace for Undo.
        const text = { title: TEAM_MSG.updated(name), description: TEAM_MSG.userUpdated };
        if (changes.isActive === false) toastDeactivation(text, res, refreshAfterUndo);
        else toastWithUndo(text, res, refreshAfterUndo);
        closeNow();
      },
      onError: async (err) => {
        if (isMfaCancelledError(err)) {
          setFailure({ text: TEAM_MSG.resetMfaCodes.MFA_REQUIRED, tone: 'warning' });
          return;
        }
        if (conflictKind(err) === 'optimistic-lock') {
          toast.error(TEAM_MSG.conflictToast);
          const who = conflictDataOf(err);
          await refresh();
          setConflict(who);
          return;
        }
        if (isApiError(err) && err.code === 'RATE_LIMIT_EXCEEDED') {
          toast.error(err.message || TEAM_MSG.rateLimited);
          setWaitSeconds(retryAfterSeconds(err, TEAM_LIMITS.rateLimitWindowSeconds));
          return;
        }
        if (isApiError(err) && err.code === 'LAST_ADMIN_ERROR') {
          setFailure({
            title: TEAM_MSG.operationBlocked,
            text: err.message === TEAM_MSG.operationBlocked ? TEAM_MSG.lastAdmin : err.message,
            tone: 'danger',
          });
          return;
        }
        setFailure({ text: manageErrorText(err), tone: 'danger' });
      },
    });
  };

  const open = userId !== null;
  const user = base;
  const canResetMfa = viewer.role === 'admin' && user !== null && user.mfaEnabled && user.status === 'active';
  const editable = canManage && !manage.isPending;

  return (
    <Sheet open={open} onOpenChange={(next) => (next ? undefined : requestClose())}>
      <SheetContent className="w-[min(32rem,calc(100%-1.5rem))] gap-0 overflow-y-auto p-0" aria-describedby={undefined}>
        <SheetHeader className="border-b border-border p-5">
          {loading || !user ? (
            <>
              <SheetTitle className="sr-only">Manage user</SheetTitle>
              <div aria-busy="true" aria-label="Loading user" className="grid gap-2">
                <Skeleton className="h-5 w-40" />
                <Skeleton className="h-4 w-56" />
              </div>
            </>
          ) : (
            <>
              <div className="flex flex-wrap items-center gap-2">
                <SheetTitle>{user.fullName}</SheetTitle>
                <StatusBadge status={user.status} />
              </div>
              <SheetDescription>{user.email}</SheetDescription>
            </>
          )}
        </SheetHeader>

        {fetchError && !loading && !user ? (
          <ErrorState title="Could not load this user" message={manageErrorText(fetchError)} onRetry={() => void refresh()} />
        ) : !loading && !user && fetchedFor === userId ? (
          <ErrorState title={TEAM_MSG.userNotFound} message="The user may have been removed from the organization." />
        ) : (
          <div className="grid flex-1 gap-6 p-5">
            {failure ? (
              <Alert tone={failure.tone} title={failure.title}>
                {failure.text}
              </Alert>
            ) : null}

            <section aria-labelledby="drawer-role-heading" className="grid gap-4">
              <h3 id="drawer-role-heading" className="text-sm font-semibold">
                Role and status
              </h3>
              {loading || !values || !user ? (
                <div className="grid gap-3">
                  <Skeleton className="h-10" />
                  <Skeleton className="h-10" />
                </div>
              ) : (
                <>
                  <div className="grid gap-2">
                    <Label htmlFor="drawer-role">Role</Label>
                    <Select
                      value={values.role}
                      disabled={!editable}
                      onValueChange={(v) => {
                        const role = v as Role;
                        if (role === values.role) return;
                        if (role === user.role) {
                          // Back to the stored role: its stored switches, no reason needed.
                          setValues({ ...values, role, permissions: { ...user.permissions } });
                          setRoleReason(undefined);
                        } else setPendingRole(role);
                      }}
                    >
                      <SelectTrigger id="drawer-role" aria-describedby="drawer-role-description">
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {ROLES.map((r) => (
                          <SelectItem key={r} value={r}>
                            {ROLE_LABELS[r].label}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    <p id="drawer-role-description" className="text-xs text-muted-foreground">
                      {ROLE_LABELS[values.role].description}
                    </p>
                  </div>
                  <div className="flex items-center justify-between gap-4 rounded-md border border-border px-3.5 py-3">
                    <div className="grid gap-0.5">
                      <Label htmlFor="drawer-status">Account Status</Label>
                      <span id="drawer-status-text" className="text-xs text-muted-foreground">
                        {isSelf ? TEAM_MSG.cannotDeactivateSelf : values.isActive ? 'Active' : 'Deactivated'}
                      </span>
                    </div>
                    <Switch
                      id="drawer-status"
                      aria-describedby="drawer-status-text"
                      checked={values.isActive}
                      disabled={!editable || isSelf}
                      onCheckedChange={(on) => {
                        // Back to the stored status needs no confirmation.
                        if (on === (user.status === 'active')) setValues({ ...values, isActive: on });
                        else setPendingStatus(on ? 'reactivate' : 'deactivate');
                      }}
                    />
                  </div>
                </>
              )}
            </section>

            {canResetMfa && !loading ? (
              <section aria-labelledby="drawer-security-heading" className="grid gap-3">
                <h3 id="drawer-security-heading" className="text-sm font-semibold">
                  Security
                </h3>
                <div className="flex items-center justify-between gap-4 rounded-md border border-border px-3.5 py-3">
                  <div className="grid gap-0.5 text-sm">
                    <span className="font-medium">Multi-factor authentication</span>
                    <span className="text-xs text-muted-foreground">
                      Enabled ({user.mfaMethod === 'totp' ? 'Authenticator App' : 'Email'})
                    </span>
                  </div>
                  <Button variant="outline" size="sm" onClick={() => setResetOpen(true)} disabled={manage.isPending}>
                    <KeyRound aria-hidden="true" />
                    Reset MFA
                  </Button>
                </div>
              </section>
            ) : null}

            <section aria-labelledby="drawer-permissions-heading" className="grid gap-3">
              <h3 id="drawer-permissions-heading" className="text-sm font-semibold">
                Permissions
              </h3>
              {loading || !values ? (
                <ul aria-busy="true" aria-label="Loading permissions" className="grid gap-2">
                  {Array.from({ length: TEAM_LIMITS.permissionSkeletonRows }, (_, i) => (
                    <li key={i}>
                      <Skeleton className="h-12" />
                    </li>
                  ))}
                </ul>
              ) : (
                <ul className="grid gap-2">
                  {PERMISSION_KEYS.map((k) => (
                    <li key={k} className="flex items-center justify-between gap-4 rounded-md border border-border px-3.5 py-2.5">
                      <div className="grid gap-0.5">
                        <Label htmlFor={`perm-${k}`}>{PERMISSION_LABELS[k].label}</Label>
                        <span id={`perm-${k}-text`} className="text-xs text-muted-foreground">
                          {PERMISSION_LABELS[k].description}
                        </span>
                      </div>
                      <Switch
                        id={`perm-${k}`}
                        aria-describedby={`perm-${k}-text`}
                        checked={values.permissions[k]}
                        disabled={!editable}
                        onCheckedChange={(on) => setValues(withPermission(values, k, on))}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </section>

            {user && !loading && user.role === 'guest' && viewer.role === 'admin' ? <GuestAccessSection guest={user} /> : null}
          </div>
        )}

        <div className="sticky bottom-0 flex flex-wrap items-center gap-2 border-t border-border bg-popover p-4">
          <span className="mr-auto text-sm" aria-live="polite">
            {waitSeconds > 0 ? (
              <span className="text-danger">Please wait {waitSeconds} s before trying again.</span>
            ) : dirty ? (
              <span className="font-medium text-warning">Unsaved changes</span>
            ) : null}
          </span>
          <Button variant="outline" onClick={requestClose}>
            Cancel
          </Button>
          {canManage ? (
            <Button onClick={save} disabled={!dirty || waitSeconds > 0} loading={manage.isPending} loadingText="Saving...">
              Save Changes
            </Button>
          ) : null}
        </div>

        <RoleChangeDialog
          role={pendingRole}
          userName={user?.fullName ?? ''}
          onCancel={() => setPendingRole(null)}
          onConfirm={(reason) => {
            if (values && pendingRole) setValues(withRole(values, pendingRole));
            setRoleReason(reason);
            setPendingRole(null);
          }}
        />
        <StatusConfirmDialog
          action={pendingStatus}
          userName={user?.fullName ?? ''}
          onCancel={() => setPendingStatus(null)}
          onConfirm={() => {
            if (values) setValues({ ...values, isActive: pendingStatus === 'reactivate' });
            setPendingStatus(null);
          }}
        />
        <ResetMfaDialog
          user={resetOpen ? user : null}
          onClose={() => setResetOpen(false)}
          onReset={(updated) => {
            setResetOpen(false);
            // The reset gives the user a new version: later saves go against it.
            setBase(updated);
          }}
        />
        <EditConflictDialog
          conflict={conflict}
          onClose={() => {
            setConflict(null);
            toast.info(TEAM_MSG.conflictResolved);
          }}
        />
      </SheetContent>
    </Sheet>
  );
}
