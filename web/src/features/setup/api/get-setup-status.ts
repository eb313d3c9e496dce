import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SetupStatusResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** GET /_api/setup/status: needsSetup is true while no organization exists (first run). */
function getSetupStatus(signal?: AbortSignal): Promise<SetupStatusResponse> {
  return apiRequest<SetupStatusResponse>('/_api/setup/status', { signal, mfaRetry: false });
}

export function setupStatusQueryOptions() {
  return queryOptions({
    queryKey: ['setup-status'],
    queryFn: ({ signal }) => getSetupStatus(signal),
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });
}

export function useSetupStatus() {
  return useQuery(setupStatusQueryOptions());
}
