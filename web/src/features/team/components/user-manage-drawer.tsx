import { useState } from 'react';
import { TEAM_MSG, type SessionUser } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { ErrorState } from '@/components/ui/error-state';
import { Sheet, SheetContent } from '@/components/ui/sheet';
import { useMemberDraft } from '../hooks/use-member-draft';
import { useMemberLoad } from '../hooks/use-member-load';
import { useMemberSave } from '../hooks/use-member-save';
import { manageErrorText } from '../lib/drawer-form';
import { EditConflictDialog } from './edit-conflict-dialog';
import { GuestAccessSection } from './guest-access-section';
import { MemberDrawerFooter } from './member-drawer-footer';
import { MemberDrawerHeader } from './member-drawer-header';
import { PermissionsSection } from './member-permissions-section';
import { RoleStatusSection } from './member-role-status-section';
import { MemberSecuritySection } from './member-security-section';
import { ResetMfaDialog } from './reset-mfa-dialog';
import { RoleChangeDialog } from './role-change-dialog';
import { StatusConfirmDialog } from './status-confirm-dialog';
import { shows } from '@/lib/access-visibility';

type UserManageDrawerProps = {
  /** The user to manage, or null while the drawer is closed. */
  userId: string | null;
  viewer: SessionUser;
  /** Whether the viewer may change users (canManageUsers); otherwise the drawer only shows them. */
  canManage: boolean;
  onClose: () => void;
};

/**
 * The Manage drawer of a team member: role (with its default switches), account status, Reset MFA, the eight
 * permission switches, and Save Changes against the version last read. It reads the user afresh each time it
 * opens, showing the loading state for at least 300 ms.
 */
export function UserManageDrawer({ userId, viewer, canManage, onClose }: UserManageDrawerProps) {
  const load = useMemberLoad(userId);
  const draft = useMemberDraft();
  const [resetOpen, setResetOpen] = useState(false);
  const { loading } = load;

  if (!loading && load.fresh && draft.base?.id !== load.fresh.id) draft.start(load.fresh);

  /** Reads the user again and puts the form back to what is stored (after a conflict or a reset). */
  const refresh = async (): Promise<void> => {
    const latest = await load.reread();
    if (latest) draft.reset(latest);
  };
  const saving = useMemberSave({ draft, viewer, refresh, onSaved: () => closeNow() });
  const closeNow = () => {
    draft.clear();
    saving.clearFailure();
    load.clear();
    onClose();
  };
  // Closing with unsaved changes asks first.
  const requestClose = () => {
    if (draft.dirty && !window.confirm(TEAM_MSG.unsavedChangesConfirm)) return;
    closeNow();
  };

  const user = draft.base;
  const isSelf = user !== null && user.email.toLowerCase() === viewer.email.toLowerCase();
  const canResetMfa = shows(viewer, 'resetMfa') && user !== null && user.mfaEnabled && user.status === 'active';
  const editable = canManage && !saving.pending;

  return (
    <Sheet open={userId !== null} onOpenChange={(next) => (next ? undefined : requestClose())}>
      <SheetContent className="w-[min(32rem,calc(100%-1.5rem))] gap-0 overflow-y-auto p-0" aria-describedby={undefined}>
        <MemberDrawerHeader user={user} loading={loading} />

        {load.fetchError && !loading && !user ? (
          <ErrorState title="Could not load this user" message={manageErrorText(load.fetchError)} onRetry={() => void refresh()} />
        ) : !loading && !user && load.fetched ? (
          <ErrorState title={TEAM_MSG.userNotFound} message="The user may have been removed from the organization." />
        ) : (
          <div className="grid flex-1 gap-6 p-5">
            {saving.failure ? (
              <Alert tone={saving.failure.tone} title={saving.failure.title}>
                {saving.failure.text}
              </Alert>
            ) : null}
            <RoleStatusSection draft={draft} loading={loading} editable={editable} isSelf={isSelf} />
            {canResetMfa && user && !loading ? (
              <MemberSecuritySection user={user} disabled={saving.pending} onResetMfa={() => setResetOpen(true)} />
            ) : null}
            <PermissionsSection draft={draft} loading={loading} editable={editable} />
            {user && !loading && user.role === 'guest' && shows(viewer, 'guestAccess') ? <GuestAccessSection guest={user} /> : null}
          </div>
        )}

        <MemberDrawerFooter
          waitSeconds={saving.waitSeconds}
          dirty={draft.dirty}
          canManage={canManage}
          saving={saving.pending}
          onCancel={requestClose}
          onSave={saving.save}
        />

        <RoleChangeDialog
          role={draft.pendingRole}
          userName={user?.fullName ?? ''}
          onCancel={draft.cancelRole}
          onConfirm={draft.confirmRole}
        />
        <StatusConfirmDialog
          action={draft.pendingStatus}
          userName={user?.fullName ?? ''}
          onCancel={draft.cancelStatus}
          onConfirm={draft.confirmStatus}
        />
        <ResetMfaDialog
          user={resetOpen ? user : null}
          onClose={() => setResetOpen(false)}
          onReset={(updated) => {
            setResetOpen(false);
            // The reset gives the user a new version: later saves go against it.
            draft.rebase(updated);
          }}
        />
        <EditConflictDialog conflict={saving.conflict} onClose={saving.closeConflict} />
      </SheetContent>
    </Sheet>
  );
}
