import type { DownloadUrlResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** GET /_api/nodes/download-url: a URL valid for minutes that answers the bytes as an attachment. */
export function getDownloadUrl(nodeId: string): Promise<DownloadUrlResponse> {
  return apiRequest<DownloadUrlResponse>(`/_api/nodes/download-url?nodeId=${encodeURIComponent(nodeId)}`);
}
