import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoveNodeRequest, NodeChangeResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { NODE_FALLBACK } from '../lib/node-messages';
import { withInFlight } from '@/lib/conflicts';
import { matterDetailQueryKey } from '@/lib/query-keys';

/** Answers the node and an undo offer. */
export function moveNode(body: MoveNodeRequest): Promise<NodeChangeResponse> {
  return apiRequest<NodeChangeResponse>('/_api/nodes/move', { body, fallbackMessage: NODE_FALLBACK.move });
}

export function useMoveNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MoveNodeRequest) => withInFlight(`node ${body.nodeId}`, () => moveNode(body)),
    meta: { handlesError: true, operation: 'move' },
    onSuccess: ({ node }) => queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(node.matterId) }),
  });
}
