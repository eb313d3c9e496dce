import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NodeResponse, NodeVersionsResponse, RestoreVersionRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { matterDetailQueryKey } from '@/lib/query-keys';

const nodeVersionsQueryKey = (nodeId: string) => ['nodes', 'versions', nodeId] as const;

/** GET /_api/nodes/versions: a file's versions, newest first. */
function getNodeVersions(nodeId: string): Promise<NodeVersionsResponse> {
  return apiRequest<NodeVersionsResponse>(`/_api/nodes/versions?nodeId=${encodeURIComponent(nodeId)}`);
}

export function useNodeVersions(nodeId: string) {
  return useQuery({ queryKey: nodeVersionsQueryKey(nodeId), queryFn: () => getNodeVersions(nodeId) });
}

/** POST /_api/nodes/restore-version: the version becomes current again, as a new version. */
function restoreVersion(body: RestoreVersionRequest): Promise<NodeResponse> {
  return apiRequest<NodeResponse>('/_api/nodes/restore-version', { body, fallbackMessage: 'Failed to restore the version.' });
}

export function useRestoreVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreVersion,
    meta: { handlesError: true, operation: 'restore version' },
    onSuccess: ({ node }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: nodeVersionsQueryKey(node.id) }),
        queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(node.matterId) }),
      ]),
  });
}
