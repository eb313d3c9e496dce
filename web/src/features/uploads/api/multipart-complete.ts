import { UPLOAD_MSG, type MultipartCompleteRequest, type MultipartCompleteResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** Registers a finished single PUT (no uploadId) or assembles the parts of a multipart upload. */
export function multipartComplete(body: MultipartCompleteRequest, signal?: AbortSignal): Promise<MultipartCompleteResponse> {
  return apiRequest<MultipartCompleteResponse>('/_api/upload/multipart-complete', {
    body,
    signal,
    timeoutMs: 120_000,
    fallbackMessage: UPLOAD_MSG.completeFailed,
  });
}
