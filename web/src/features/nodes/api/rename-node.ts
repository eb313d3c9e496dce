import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NodeChangeResponse, RenameNodeRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { NODE_FALLBACK } from '../lib/node-messages';
import { withInFlight } from '@/lib/conflicts';
import { matterDetailQueryKey } from '@/lib/query-keys';

/** POST /_api/nodes/rename (a folder or a file). Answers the node and, when the name changed, an undo offer. */
export function renameNode(body: RenameNodeRequest): Promise<NodeChangeResponse> {
  return apiRequest<NodeChangeResponse>('/_api/nodes/rename', { body, fallbackMessage: NODE_FALLBACK.rename });
}

export function useRenameNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RenameNodeRequest) => withInFlight(`node ${body.nodeId}`, () => renameNode(body)),
    meta: { handlesError: true, operation: 'rename' },
    onSuccess: ({ node }) => queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(node.matterId) }),
  });
}
