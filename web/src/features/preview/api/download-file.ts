import type { DownloadUrlResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** Downloads the file through a short-lived link (GET /_api/nodes/download-url) answering it as an attachment. */
export async function downloadFile(node: { id: string; name: string }): Promise<void> {
  const { url } = await apiRequest<DownloadUrlResponse>(`/_api/nodes/download-url?nodeId=${encodeURIComponent(node.id)}`);
  const a = document.createElement('a');
  a.href = url;
  a.download = node.name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
