import { useMutation, useQueryClient } from '@tanstack/react-query';
import { VAULT_MSG, type LegalHoldRequest, type LegalHoldResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { matterDetailQueryKey, mattersQueryKey, vaultQueryKey } from '@/lib/query-keys';

/**
 * POST /_api/matters/legal-hold: applies or removes the hold. When the organization asks for a second factor on
 * vault operations the server answers 401 MFA_REQUIRED; the api client then asks for a code and sends the same
 * request again with it (mfaToken in the body).
 */
function updateLegalHold(body: LegalHoldRequest): Promise<WithDates<LegalHoldResponse>> {
  return apiRequest<LegalHoldResponse>('/_api/matters/legal-hold', { body, fallbackMessage: VAULT_MSG.holdFailed });
}

export function useUpdateLegalHold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLegalHold,
    meta: { handlesError: true, operation: 'legal hold' },
    // The matter's badge, banner and read-only state, the list's badge and the vault's hold column all change.
    onSuccess: ({ matter }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matter.id) }),
        queryClient.invalidateQueries({ queryKey: mattersQueryKey }),
        queryClient.invalidateQueries({ queryKey: vaultQueryKey }),
      ]),
  });
}
