import type { PreviewUrlResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';

/** GET /_api/nodes/preview-url: a URL valid for minutes that answers the bytes inline, and the viewer to use. */
function getPreviewUrl(nodeId: string, version?: number): Promise<PreviewUrlResponse> {
  const v = version === undefined ? '' : `&version=${version}`;
  return apiRequest<PreviewUrlResponse>(`/_api/nodes/preview-url?nodeId=${encodeURIComponent(nodeId)}${v}`);
}

export type LoadedPreview = PreviewUrlResponse & { blob: Blob };

/**
 * A file's bytes for its preview: the signed link, then the bytes read at once (the page renders them itself and
 * never opens the link as a page, so nothing in the document can run).
 */
export async function loadPreview(nodeId: string, signal?: AbortSignal, version?: number): Promise<LoadedPreview> {
  const link = await getPreviewUrl(nodeId, version);
  const res = await fetch(link.url, { credentials: 'same-origin', signal });
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => null);
    const message =
      body && typeof body === 'object' && 'error' in body && typeof body.error === 'string' ? body.error : 'The file could not be read.';
    throw new ApiError({ status: res.status, message });
  }
  return { ...link, blob: await res.blob() };
}
