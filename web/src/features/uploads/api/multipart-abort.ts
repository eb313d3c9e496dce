import { UPLOAD_MSG, type MultipartAbortRequest, type MultipartAbortResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

export function multipartAbort(body: MultipartAbortRequest): Promise<MultipartAbortResponse> {
  return apiRequest<MultipartAbortResponse>('/_api/upload/multipart-abort', { body, fallbackMessage: UPLOAD_MSG.abortFailed });
}
