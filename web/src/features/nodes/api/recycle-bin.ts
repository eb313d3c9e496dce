/**
 * The matter's recycle bin: GET /_api/nodes/bin lists it, POST /_api/nodes/bin/restore puts an item back. The
 * bin's days come from GET /_api/settings/retention (members may read it; the default when it cannot be read).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NODE_MSG,
  SETTINGS_LIMITS,
  type BinListResponse,
  type NodeResponse,
  type RestoreBinRequest,
  type RetentionSettingsResponse,
} from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { matterDetailQueryKey } from '@/lib/query-keys';

export const binQueryKey = (matterId: string) => ['matters', 'bin', matterId] as const;

export function useRecycleBin(matterId: string, enabled = true) {
  return useQuery({
    queryKey: binQueryKey(matterId),
    queryFn: ({ signal }) =>
      apiRequest<BinListResponse>(`/_api/nodes/bin?matterId=${encodeURIComponent(matterId)}`, {
        signal,
        fallbackMessage: NODE_MSG.binLoadFailed,
      }),
    enabled,
  });
}

function restoreFromBin(body: RestoreBinRequest): Promise<NodeResponse> {
  return apiRequest<NodeResponse>('/_api/nodes/bin/restore', { body, fallbackMessage: NODE_MSG.restoreFailed });
}

/** Restores an item; the bin and the matter's tree are refreshed either way (a 404 means it is gone already). */
export function useRestoreFromBin(matterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreFromBin,
    meta: { handlesError: true, operation: 'restore' },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: binQueryKey(matterId) });
      await queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matterId) });
    },
  });
}

/** Days a deleted item stays in the bin, for the delete dialog's wording. */
export function useBinDays(enabled = true): number {
  const { data } = useQuery({
    queryKey: ['settings', 'retention', 'bin-days'],
    queryFn: async ({ signal }) => {
      try {
        const answer = await apiRequest<Partial<RetentionSettingsResponse>>('/_api/settings/retention', { signal, mfaRetry: false });
        return answer.binRetentionDays ?? SETTINGS_LIMITS.binRetentionDaysDefault;
      } catch {
        return SETTINGS_LIMITS.binRetentionDaysDefault;
      }
    },
    retry: false,
    staleTime: 5 * 60_000,
    enabled,
  });
  return data ?? SETTINGS_LIMITS.binRetentionDaysDefault;
}
