import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TEAM_LIMITS, TEAM_MSG, type SessionUser } from '@strongroom/contracts';
import { isApiError, isMfaCancelledError } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { conflictKind } from '@/lib/conflicts';
import { toast } from '@/lib/toast';
import { toastWithUndo } from '@/lib/undo';
import { useManageUser } from '../api/manage-user';
import { toastDeactivation } from '../components/deactivation-grace-toast';
import { type EditConflict } from '../components/edit-conflict-dialog';
import { conflictDataOf, manageErrorText, retryAfterSeconds } from '../lib/drawer-form';
import { sessionQueryKey, teamQueryKey } from '../lib/team-query-keys';
import { type MemberDraft } from './use-member-draft';

/** Why the last save failed, shown above the form. */
type SaveFailure = { title?: string; text: string; tone: 'danger' | 'warning' };

type MemberSaveOptions = {
  draft: MemberDraft;
  viewer: SessionUser;
  /** Reads the user again and puts the form back to what is stored. */
  refresh: () => Promise<void>;
  /** Called after a save went through (its toast, with Undo, is already shown). */
  onSaved: () => void;
};

/**
 * Save Changes of the Manage drawer. A save goes through with a toast offering Undo (a deactivation counts
 * down its grace). Someone else's save in between puts the form back to what is stored and says who;
 * a rate-limit refusal keeps Save disabled for the server's wait; the last administrator cannot be demoted
 * or deactivated; a cancelled second-factor prompt leaves a warning that verification is required; anything
 * else shows its text.
 */
export function useMemberSave({ draft, viewer, refresh, onSaved }: MemberSaveOptions) {
  const queryClient = useQueryClient();
  const manage = useManageUser();
  const [conflict, setConflict] = useState<EditConflict | null>(null);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [waitSeconds, setWaitSeconds] = useState(0);

  // Save stays disabled while the server's wait after a rate-limit refusal runs.
  useEffect(() => {
    if (waitSeconds <= 0) return;
    const t = setTimeout(() => setWaitSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => clearTimeout(t);
  }, [waitSeconds]);

  const save = () => {
    if (!draft.base || !draft.values) return;
    const body = draft.request(viewer.displayName);
    if (!body) {
      toast.info(TEAM_MSG.noChanges);
      return;
    }
    setFailure(null);
    const name = draft.base.fullName;
    manage.mutate(body, {
      onSuccess: (res) => {
        const refreshAfterUndo = () =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: teamQueryKey }),
            queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
          ]);
        // Who was updated, with the confirmation beneath it; a deactivation counts down its grace for Undo.
        const text = { title: TEAM_MSG.updated(name), description: TEAM_MSG.userUpdated };
        if (body.changes.isActive === false) toastDeactivation(text, res, refreshAfterUndo);
        else toastWithUndo(text, res, refreshAfterUndo);
        onSaved();
      },
      onError: (err) =>
        void (async () => {
          // Granting admin or user management, or deactivating an administrator, waits for a second administrator:
          // the change was put back in the list and the waiting dialog says so; the drawer closes.
          if (isApprovalRequiredError(err)) {
            onSaved();
            return;
          }
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
        })(),
    });
  };

  return {
    save,
    pending: manage.isPending,
    failure,
    clearFailure: () => setFailure(null),
    waitSeconds,
    conflict,
    /** The conflict notice was read: the form already shows what is stored. */
    closeConflict: () => {
      setConflict(null);
      toast.info(TEAM_MSG.conflictResolved);
    },
  };
}
