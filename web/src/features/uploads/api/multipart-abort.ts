import { UPLOAD_MSG } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

export function multipartAbort(body: { s3Key: string; uploadId: string }): Promise<{ success: true }> {
  return apiRequest('/_api/upload/multipart-abort', { body, fallbackMessage: UPLOAD_MSG.abortFailed });
}
