import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DispositionDecideRequest,
  DispositionDecideResponse,
  DispositionListResponse,
  DispositionStatus,
} from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { mattersQueryKey, vaultQueryKey } from '@/lib/query-keys';

const dispositionQueryKey = [...vaultQueryKey, 'disposition'] as const;

/** GET /_api/disposition/list: the review queue in one state (all when none is given). */
function getDispositionList(status: DispositionStatus | undefined, signal?: AbortSignal) {
  return apiRequest<DispositionListResponse>(`/_api/disposition/list${status ? `?status=${status}` : ''}`, {
    signal,
    fallbackMessage: 'The disposition review could not be loaded.',
  });
}

export function useDispositionList(status: DispositionStatus | undefined, enabled = true) {
  return useQuery({
    queryKey: [...dispositionQueryKey, status ?? 'all'],
    queryFn: ({ signal }) => getDispositionList(status, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * POST /_api/disposition/decide. Destroying asks for a fresh second-factor code (the api client asks for it on
 * 401 MFA_REQUIRED and sends the request again). Where the organization's approval rules govern it, the answer is
 * 202 APPROVAL_REQUIRED: the api client opens the waiting dialog and throws ApprovalRequiredError (not done yet).
 */
function decide(body: DispositionDecideRequest) {
  return apiRequest<DispositionDecideResponse>('/_api/disposition/decide', { body, fallbackMessage: 'The decision could not be saved.' });
}

export function useDecideDisposition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decide,
    meta: { handlesError: true, operation: 'disposition decision' },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: vaultQueryKey }),
        queryClient.invalidateQueries({ queryKey: mattersQueryKey }),
      ]),
  });
}
