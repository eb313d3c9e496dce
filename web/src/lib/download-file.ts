import { NODE_MSG, type DownloadUrlResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';

/** GET /_api/nodes/download-url: a URL valid for minutes that answers the bytes (of one version, when given) as an attachment. */
function getDownloadUrl(nodeId: string, version?: number): Promise<DownloadUrlResponse> {
  const v = version === undefined ? '' : `&version=${version}`;
  return apiRequest<DownloadUrlResponse>(`/_api/nodes/download-url?nodeId=${encodeURIComponent(nodeId)}${v}`);
}

/** Downloads a file (one of its versions, when given) through a short-lived link; a failure is shown as a toast. */
export async function downloadFile(n: { id: string; name: string }, version?: number) {
  try {
    const { url } = await getDownloadUrl(n.id, version);
    const a = document.createElement('a');
    a.href = url;
    a.download = n.name;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  } catch (err) {
    toast.error(NODE_MSG.downloadFailed, { description: errorMessage(err) });
  }
}
