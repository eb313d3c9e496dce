import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MATTER_MSG, type MatterChangeResponse, type UpdateMatterRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { withInFlight } from '@/lib/conflicts';
import { matterDetailQueryKey, mattersQueryKey } from '@/lib/query-keys';

/** POST /_api/matters/update with the version last read (409 CONFLICT_ERROR when stale); answers an undo offer too. */
export function updateMatter(body: UpdateMatterRequest): Promise<WithDates<MatterChangeResponse>> {
  return apiRequest<MatterChangeResponse>('/_api/matters/update', { body, fallbackMessage: MATTER_MSG.updateFailed });
}

export function useUpdateMatter() {
  const queryClient = useQueryClient();
  return useMutation({
    // One update of a matter at a time from this browser (in-flight registry); races are retried.
    mutationFn: (body: UpdateMatterRequest) => withInFlight(`matter ${body.matterId}`, () => updateMatter(body)),
    meta: { handlesError: true, operation: 'update' },
    onSuccess: ({ matter }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matter.id) }),
        queryClient.invalidateQueries({ queryKey: mattersQueryKey }),
      ]),
  });
}
