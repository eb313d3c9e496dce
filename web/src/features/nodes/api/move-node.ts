import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoveNodeRequest, NodeResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { matterDetailQueryKey } from '@/lib/query-keys';

export function moveNode(body: MoveNodeRequest): Promise<NodeResponse> {
  return apiRequest<NodeResponse>('/_api/nodes/move', { body });
}

export function useMoveNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveNode,
    meta: { handlesError: true },
    onSuccess: ({ node }) => queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(node.matterId) }),
  });
}
