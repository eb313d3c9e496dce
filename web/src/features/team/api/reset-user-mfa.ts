import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TEAM_MSG, type ResetMfaRequest, type ResetMfaResponse } from '@strongroom/contracts';
import { teamQueryKey } from '../lib/team-query-keys';
import { isApiError, type MfaDemand } from '@/lib/api-error';
import { teamRequest, withCode } from './team-request';

const PATH = '/_api/settings/users/reset-mfa';
const USER_MANAGEMENT_DEMAND: MfaDemand = { operation: 'MFA_USER_MANAGEMENT', method: 'totp', availableMethods: ['totp', 'email'] };

/**
 * POST /_api/settings/users/reset-mfa. It always needs a fresh code of the administrator's own second factor:
 * the first call goes without one, the server checks the rules (an active user with MFA) and then asks for it.
 */
async function resetUserMfa(body: Omit<ResetMfaRequest, 'mfaToken'>): Promise<ResetMfaResponse> {
  try {
    return await teamRequest<ResetMfaResponse>(PATH, body, TEAM_MSG.resetMfaFailed);
  } catch (error) {
    // A server that reads the missing code as a malformed request (rather than asking for one) is answered
    // the same way: the prompt asks for the code and the reset goes again with it.
    if (isApiError(error) && error.status === 400 && error.message === TEAM_MSG.mfaTokenRequired) {
      return withCode<ResetMfaResponse>(PATH, body, USER_MANAGEMENT_DEMAND, TEAM_MSG.resetMfaFailed);
    }
    throw error;
  }
}

export function useResetUserMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetUserMfa,
    meta: { handlesError: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamQueryKey }),
  });
}
