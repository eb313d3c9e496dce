import type { UploadPartsQuery, UploadPartsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** GET /_api/upload/parts: the parts already stored, to resume after a reload. */
export function listUploadParts(uploadId: string, s3Key: string, signal?: AbortSignal): Promise<UploadPartsResponse> {
  const qs = new URLSearchParams({ uploadId, s3Key } satisfies UploadPartsQuery);
  return apiRequest<UploadPartsResponse>(`/_api/upload/parts?${qs.toString()}`, { signal });
}
