import { UPLOAD_MSG, type PresignedUrlRequest, type PresignedUrlResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/upload/presigned: a single PUT (with fileSize) or one part (partNumber, uploadId, s3Key). */
export function getPresignedUrl(body: PresignedUrlRequest, signal?: AbortSignal): Promise<PresignedUrlResponse> {
  return apiRequest<PresignedUrlResponse>('/_api/upload/presigned', { body, signal, fallbackMessage: UPLOAD_MSG.presignFailed });
}
