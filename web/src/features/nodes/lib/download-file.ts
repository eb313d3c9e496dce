import { NODE_MSG, type NodeTreeDto } from '@strongroom/contracts';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { getDownloadUrl } from '../api/get-download-url';

/** Downloads a file through a short-lived link; a failure is shown as a toast. */
export async function downloadFile(n: Pick<NodeTreeDto, 'id' | 'name'>) {
  try {
    const { url } = await getDownloadUrl(n.id);
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
