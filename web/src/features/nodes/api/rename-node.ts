import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NodeResponse, RenameNodeRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { matterDetailQueryKey } from '@/lib/query-keys';

/** POST /_api/nodes/rename (folders only). */
export function renameNode(body: RenameNodeRequest): Promise<NodeResponse> {
  return apiRequest<NodeResponse>('/_api/nodes/rename', { body });
}

export function useRenameNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameNode,
    meta: { handlesError: true },
    onSuccess: ({ node }) => queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(node.matterId) }),
  });
}
