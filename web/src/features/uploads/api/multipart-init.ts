import { UPLOAD_MSG, type MultipartInitRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

export function multipartInit(body: MultipartInitRequest, signal?: AbortSignal): Promise<{ uploadId: string; s3Key: string }> {
  return apiRequest('/_api/upload/multipart-init', { body, signal, fallbackMessage: UPLOAD_MSG.initFailed });
}
