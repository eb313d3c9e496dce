import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteNodeRequest, DeleteNodeResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { NODE_FALLBACK } from '../lib/node-messages';
import { withInFlight } from '@/lib/conflicts';
import { matterDetailQueryKey } from '@/lib/query-keys';
import { binQueryKey } from './recycle-bin';

export function deleteNode(body: DeleteNodeRequest): Promise<DeleteNodeResponse> {
  return apiRequest<DeleteNodeResponse>('/_api/nodes/delete', { body, fallbackMessage: NODE_FALLBACK.delete });
}

/** Moves the item to the recycle bin. The matter id comes along so the detail and the bin can be refreshed. */
export function useDeleteNode(matterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteNodeRequest) => withInFlight(`node ${body.nodeId}`, () => deleteNode(body)),
    meta: { handlesError: true, operation: 'delete' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matterId) });
      await queryClient.invalidateQueries({ queryKey: binQueryKey(matterId) });
    },
  });
}
