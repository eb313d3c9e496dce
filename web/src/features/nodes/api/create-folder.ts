import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateFolderRequest, NodeResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { NODE_FALLBACK } from '../lib/node-messages';
import { matterDetailQueryKey } from '@/lib/query-keys';

export function createFolder(body: CreateFolderRequest): Promise<NodeResponse> {
  return apiRequest<NodeResponse>('/_api/nodes/create', { body, fallbackMessage: NODE_FALLBACK.create });
}

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFolder,
    meta: { handlesError: true, operation: 'folder creation' },
    onSuccess: ({ node }) => queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(node.matterId) }),
  });
}
