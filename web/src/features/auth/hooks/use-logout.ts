import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { MSG } from '@strongroom/contracts';
import { endSession } from '@/lib/session-end';
import { clearSystemMfaTokens } from '@/lib/system-mfa';
import { sessionQueryKey, type SessionData } from '../api/get-session';
import { logout } from '../api/logout';
import { clearSession } from '../session-errors';

/**
 * Logs out: POST /_api/auth/logout, then, whatever the answer, forget every cached answer and go to /login.
 * 'Logged out successfully' on success, MSG.logoutIssues otherwise. Before the call, while the session still
 * allows it, the user's leftovers in this browser are cleaned (running uploads cancelled, saved upload state
 * of the organization removed).
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const run = useCallback(async () => {
    setPending(true);
    const user = queryClient.getQueryData<SessionData>(sessionQueryKey)?.user;
    await endSession(user ? { userId: user.id, organizationId: user.organizationId } : null);
    let ok = true;
    try {
      await logout();
    } catch {
      ok = false;
    }
    clearSystemMfaTokens();
    await queryClient.cancelQueries();
    clearSession(queryClient);
    if (ok) toast.success(MSG.logoutSuccess);
    else toast.warning(MSG.logoutIssues);
    setPending(false);
    void navigate('/login', { replace: true });
  }, [navigate, queryClient]);

  return { logout: run, pending };
}
