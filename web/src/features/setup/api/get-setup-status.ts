import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET /_api/setup/status: needsSetup is true while no organization exists (first run). */
export function getSetupStatus(signal?: AbortSignal): Promise<{ needsSetup: boolean }> {
  return apiRequest<{ needsSetup: boolean }>('/_api/setup/status', { signal, mfaRetry: false });
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
