import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { MSG } from '@strongroom/contracts';
import { clearSystemMfaTokens } from '@/lib/system-mfa';
import { logout } from '../api/logout';
import { clearSession } from '../session-errors';

/**
 * Logs out: POST /_api/auth/logout, then, whatever the answer, forget every cached answer and go to /login.
 * 'Logged out successfully' on success, the spec's warning otherwise.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const run = useCallback(async () => {
    setPending(true);
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
