import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MATTER_MSG, type CreateMatterRequest, type MatterResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { mattersQueryKey } from '@/lib/query-keys';

/** POST /_api/matters/create. Without matterNumber the server takes the next MAT-YYYY-NNN. */
export function createMatter(body: CreateMatterRequest): Promise<WithDates<MatterResponse>> {
  return apiRequest<MatterResponse>('/_api/matters/create', { body, fallbackMessage: MATTER_MSG.createFailed });
}

export function useCreateMatter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMatter,
    // 'Concurrent matter creation detected' (two numbers drawn at once) is retried by the client's rule.
    meta: { handlesError: true, operation: 'create' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mattersQueryKey }),
  });
}
