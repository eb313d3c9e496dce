import { useQuery } from '@tanstack/react-query';
import { VAULT_LIMITS, type RetentionSettingsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * The organization's default retention in years, from GET /_api/settings/retention, or null when that call
 * does not answer it (a guest, an older server): the vault dialog then offers the recommended 7.
 * It never asks for a code: a settings read is not worth a prompt in the middle of vaulting.
 */
async function getDefaultRetention(signal?: AbortSignal): Promise<number | null> {
  try {
    const answer = await apiRequest<Partial<RetentionSettingsResponse>>('/_api/settings/retention', { signal, mfaRetry: false });
    const years = answer?.defaultRetentionYears;
    return typeof years === 'number' && Number.isInteger(years) && years >= 1 && years <= VAULT_LIMITS.retentionMax ? years : null;
  } catch {
    return null;
  }
}

export function useDefaultRetention(enabled: boolean) {
  return useQuery({
    queryKey: ['settings', 'retention', 'default-years'],
    queryFn: ({ signal }) => getDefaultRetention(signal),
    enabled,
    retry: false,
  });
}
