import { UPLOAD_LIMITS } from '@strongroom/contracts';

export type PartRange = { partNumber: number; start: number; end: number };

export function isMultipart(size: number): boolean {
  return size >= UPLOAD_LIMITS.multipartThreshold;
}

export function partCount(size: number, chunkSize: number = UPLOAD_LIMITS.chunkSize): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** The byte range of each part (end exclusive): 10 MB chunks, the last one shorter. */
export function partRanges(size: number, chunkSize: number = UPLOAD_LIMITS.chunkSize): PartRange[] {
  return Array.from({ length: partCount(size, chunkSize) }, (_, i) => ({
    partNumber: i + 1,
    start: i * chunkSize,
    end: Math.min(size, (i + 1) * chunkSize),
  }));
}

/** The parts still to upload, given the part numbers already stored. */
export function remainingParts(size: number, done: Iterable<number>, chunkSize: number = UPLOAD_LIMITS.chunkSize): PartRange[] {
  const have = new Set(done);
  return partRanges(size, chunkSize).filter((p) => !have.has(p.partNumber));
}

/** Bytes of the parts already stored. */
export function uploadedBytes(size: number, done: Iterable<number>, chunkSize: number = UPLOAD_LIMITS.chunkSize): number {
  const have = new Set(done);
  return partRanges(size, chunkSize)
    .filter((p) => have.has(p.partNumber))
    .reduce((sum, p) => sum + (p.end - p.start), 0);
}

export const UPLOAD_STATE_PREFIX = 'strongroom.upload';

/** localStorage key of a multipart upload's state: the organization, then the file's name, size and lastModified. */
export function uploadStorageKey(organizationId: string, file: { name: string; size: number; lastModified: number }): string {
  return `${UPLOAD_STATE_PREFIX}:${organizationId}:${file.name}:${file.size}:${file.lastModified}`;
}

/** What is kept in the browser (localStorage) to resume a multipart upload after a reload. */
export type SavedUpload = {
  fileSize: number;
  fileName: string;
  fileType: string;
  isMultipart: boolean;
  uploadId: string;
  s3Key: string;
  matterId: string;
  parentId: string | null;
  chunkCount: number;
  uploadedChunks: { PartNumber: number; ETag: string }[];
  startTime: string;
  organizationId: string;
  lastModified: number;
};

export function parseSavedUpload(raw: string | null, organizationId: string): SavedUpload | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<SavedUpload>;
    if (typeof v.uploadId !== 'string' || typeof v.s3Key !== 'string' || !Array.isArray(v.uploadedChunks)) return null;
    // Another organization's upload (a different account on this browser) is never resumed.
    if (v.organizationId !== organizationId) return null;
    return v as SavedUpload;
  } catch {
    return null;
  }
}

/** 'ETag: "abc"' -> 'abc'. */
export function cleanEtag(etag: string | null): string | null {
  if (!etag) return null;
  const v = etag.replace(/"/g, '').trim();
  return v === '' ? null : v;
}
