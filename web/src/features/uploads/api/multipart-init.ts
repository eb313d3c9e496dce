import { UPLOAD_MSG, type MultipartInitRequest, type MultipartInitResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

export function multipartInit(body: MultipartInitRequest, signal?: AbortSignal): Promise<MultipartInitResponse> {
  return apiRequest<MultipartInitResponse>('/_api/upload/multipart-init', { body, signal, fallbackMessage: UPLOAD_MSG.initFailed });
}
