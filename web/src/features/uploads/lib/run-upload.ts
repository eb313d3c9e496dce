import { allowedMimeType, fileNameSchema, formatByteLimit, UPLOAD_LIMITS, UPLOAD_MSG, type UploadOnConflict } from '@strongroom/contracts';
import { errorMessage, isApiError } from '@/lib/api-error';
import { getPresignedUrl } from '../api/get-presigned-url';
import { listUploadParts } from '../api/list-upload-parts';
import { multipartAbort } from '../api/multipart-abort';
import { multipartComplete } from '../api/multipart-complete';
import { multipartInit } from '../api/multipart-init';
import { putWithProgress, UploadAbortedError } from './put-with-progress';
import {
  cleanEtag,
  isMultipart,
  parseSavedUpload,
  partCount,
  remainingParts,
  uploadedBytes,
  uploadStorageKey,
  type SavedUpload,
} from './upload-plan';

/** A store answered a part without its ETag: the part cannot be listed at completion, so the upload stops. */
class EtagMissingError extends Error {
  constructor() {
    super(UPLOAD_MSG.etagMissing);
    this.name = 'EtagMissingError';
  }
}

/**
 * The network calls an upload makes: the upload API and the PUT of bytes to the store. Injected so the runner's
 * rules (resume, one failed part stopping the rest, cancel) can be exercised without a network.
 */
export type UploadTransport = {
  presign: typeof getPresignedUrl;
  init: typeof multipartInit;
  listParts: typeof listUploadParts;
  complete: typeof multipartComplete;
  abort: typeof multipartAbort;
  put: typeof putWithProgress;
};

export const httpTransport: UploadTransport = {
  presign: getPresignedUrl,
  init: multipartInit,
  listParts: listUploadParts,
  complete: multipartComplete,
  abort: multipartAbort,
  put: putWithProgress,
};

export type UploadTarget = {
  organizationId: string;
  matterId: string;
  parentId: string | null;
  /** What the server does when the name is taken: a new version of that file, or keep both. Absent: refused. */
  onConflict?: UploadOnConflict;
};
export type UploadEvents = {
  /** Bytes of the file stored so far (parts done plus parts in flight). */
  onProgress: (loaded: number) => void;
  /** A multipart upload resumed: the number of parts already on the server. */
  onResume?: (partsDone: number) => void;
};

/** The client-side checks of a file: not empty, under the size limit, of an allowed type (the server enforces them too). Answers the message, or null. */
export function checkFile(file: File, maxBytes: number = UPLOAD_LIMITS.defaultMaxFileBytes): string | null {
  const name = fileNameSchema.safeParse(file.name);
  if (!name.success) return name.error.issues[0]?.message ?? UPLOAD_MSG.invalidFileType;
  if (file.size === 0) return UPLOAD_MSG.fileEmpty;
  if (file.size > maxBytes) return UPLOAD_MSG.fileTooLarge(formatByteLimit(maxBytes));
  if (!allowedMimeType(file.name, file.type || 'application/octet-stream')) return UPLOAD_MSG.invalidFileType;
  return null;
}

function fileTypeOf(file: File): string {
  return allowedMimeType(file.name, file.type || 'application/octet-stream') ?? (file.type || 'application/octet-stream');
}

function readSaved(key: string, organizationId: string): SavedUpload | null {
  try {
    const raw = localStorage.getItem(key);
    const saved = parseSavedUpload(raw, organizationId);
    if (raw && !saved) localStorage.removeItem(key);
    return saved;
  } catch {
    return null;
  }
}

function writeSaved(key: string, saved: SavedUpload): void {
  try {
    localStorage.setItem(key, JSON.stringify(saved));
  } catch {
    // Storage full or blocked: the upload goes on, it just cannot resume after a reload.
  }
}

function clearSavedUpload(organizationId: string, file: File): void {
  try {
    localStorage.removeItem(uploadStorageKey(organizationId, file));
  } catch {
    /* nothing to clear */
  }
}

async function standardUpload(
  file: File,
  target: UploadTarget,
  events: UploadEvents,
  signal: AbortSignal,
  net: UploadTransport,
): Promise<void> {
  const fileType = fileTypeOf(file);
  const base = { fileName: file.name, fileType, matterId: target.matterId, parentId: target.parentId };
  const conflict = target.onConflict ? { onConflict: target.onConflict } : {};
  const presigned = await net.presign({ ...base, fileSize: file.size, ...conflict }, signal);
  try {
    await net.put(presigned.url, file, presigned.headers, events.onProgress, signal);
  } catch (error) {
    if (error instanceof UploadAbortedError) throw error;
    throw new Error(error instanceof Error && error.message ? error.message : UPLOAD_MSG.standardFailed, { cause: error });
  }
  await net.complete({ ...base, s3Key: presigned.s3Key, fileSize: file.size, ...conflict }, signal);
}

async function multipartUpload(
  file: File,
  target: UploadTarget,
  events: UploadEvents,
  signal: AbortSignal,
  net: UploadTransport,
): Promise<void> {
  const key = uploadStorageKey(target.organizationId, file);
  const fileType = fileTypeOf(file);
  const base = { fileName: file.name, fileType, matterId: target.matterId, parentId: target.parentId };
  const conflict = target.onConflict ? { onConflict: target.onConflict } : {};
  let saved = readSaved(key, target.organizationId);
  if (saved && (saved.matterId !== target.matterId || saved.parentId !== target.parentId)) saved = null;

  const done = new Map<number, string>();
  if (saved) {
    try {
      const listed = await net.listParts(saved.uploadId, saved.s3Key, signal);
      if (listed.listable) for (const p of listed.parts) done.set(p.partNumber, p.etag);
      else for (const c of saved.uploadedChunks) done.set(c.PartNumber, c.ETag);
      events.onResume?.(done.size);
    } catch (error) {
      // The upload is gone on the server (aborted, expired): start again.
      if (isApiError(error) && error.status === 404) saved = null;
      else throw error;
    }
  }
  if (!saved) {
    const init = await net.init({ ...base, fileSize: file.size, ...conflict }, signal);
    saved = {
      ...base,
      isMultipart: true,
      uploadId: init.uploadId,
      s3Key: init.s3Key,
      fileSize: file.size,
      lastModified: file.lastModified,
      organizationId: target.organizationId,
      chunkCount: partCount(file.size),
      uploadedChunks: [],
      startTime: new Date().toISOString(),
    };
    writeSaved(key, saved);
  }
  const session = saved;
  const baseBytes = uploadedBytes(file.size, done.keys());
  const inFlight = new Map<number, number>();
  events.onProgress(baseBytes);

  const queue = remainingParts(file.size, done.keys());
  let finishedBytes = 0;
  // The first failed part stops the other workers; what is stored stays for a retry or a resume.
  const stop = new AbortController();
  const partSignal = AbortSignal.any([signal, stop.signal]);
  let firstError: Error | null = null;
  const sign = (partNumber: number) => {
    const pending = net.presign({ ...base, partNumber, uploadId: session.uploadId, s3Key: session.s3Key }, partSignal);
    pending.catch(() => {}); // a failure counts when the part's turn comes and it is awaited
    return pending;
  };
  const worker = async () => {
    let part = queue.shift();
    let presigning = part ? sign(part.partNumber) : null;
    while (part && presigning) {
      if (partSignal.aborted) throw new UploadAbortedError();
      const partNumber = part.partNumber;
      try {
        const presigned = await presigning;
        // The next part's address is asked for while this part's bytes go up, so no round trip sits between parts.
        const following = queue.shift();
        const followingSigned = following ? sign(following.partNumber) : null;
        const current = part;
        const etag = await net.put(
          presigned.url,
          file.slice(current.start, current.end),
          presigned.headers,
          (loaded) => {
            inFlight.set(current.partNumber, loaded);
            events.onProgress(Math.min(file.size, baseBytes + finishedBytes + [...inFlight.values()].reduce((a, b) => a + b, 0)));
          },
          partSignal,
        );
        const clean = cleanEtag(etag);
        if (!clean) throw new EtagMissingError();
        inFlight.delete(current.partNumber);
        finishedBytes += current.end - current.start;
        done.set(current.partNumber, clean);
        session.uploadedChunks = [...done].map(([PartNumber, ETag]) => ({ PartNumber, ETag }));
        // A cancelled upload (Cancel, logout) has had its saved state removed: a part finishing late must not bring it back.
        if (signal.aborted) throw new UploadAbortedError();
        writeSaved(key, session);
        part = following;
        presigning = followingSigned;
      } catch (error) {
        if (signal.aborted) throw new UploadAbortedError();
        if (stop.signal.aborted) throw error; // another part failed first: its error is the one shown
        firstError = error instanceof EtagMissingError ? error : new Error(UPLOAD_MSG.chunkFailed(partNumber), { cause: error });
        stop.abort();
        throw firstError;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: UPLOAD_LIMITS.parallelChunks }, worker));
  if (signal.aborted) throw new UploadAbortedError();
  if (firstError) throw firstError;
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const parts = [...done].map(([PartNumber, ETag]) => ({ PartNumber, ETag })).sort((a, b) => a.PartNumber - b.PartNumber);
  await net.complete({ ...base, s3Key: session.s3Key, uploadId: session.uploadId, fileSize: file.size, parts, ...conflict }, signal);
  clearSavedUpload(target.organizationId, file);
}

/** Uploads one file into a matter's folder: a single PUT under 100 MB, resumable multipart from 100 MB. */
export async function runUpload(
  file: File,
  target: UploadTarget,
  events: UploadEvents,
  signal: AbortSignal,
  net: UploadTransport = httpTransport,
): Promise<void> {
  if (isMultipart(file.size)) await multipartUpload(file, target, events, signal, net);
  else await standardUpload(file, target, events, signal, net);
}

/**
 * Cancels a multipart upload on the server and clears the saved state whatever the answer. Answers the row
 * error when the server could not abort it.
 */
export async function abortUpload(file: File, organizationId: string, net: UploadTransport = httpTransport): Promise<string | null> {
  const key = uploadStorageKey(organizationId, file);
  const saved = readSaved(key, organizationId);
  clearSavedUpload(organizationId, file);
  if (!saved) return null;
  try {
    await net.abort({ s3Key: saved.s3Key, uploadId: saved.uploadId });
    return null;
  } catch {
    return UPLOAD_MSG.abortServerFailed;
  }
}

/**
 * Whether another try could pass: a dropped connection, a timeout, a throttle or a server error may; a refusal of
 * the request itself (a name taken, no permission, the quota, a read-only matter) will answer the same again.
 */
export function isRetryableUploadError(error: unknown): boolean {
  if (!isApiError(error)) return true;
  const s = error.status;
  return s === 0 || s === 404 || s === 408 || s === 429 || s >= 500;
}

export function uploadErrorMessage(error: unknown): string {
  if (error instanceof UploadAbortedError) return UPLOAD_MSG.aborted;
  return errorMessage(error, UPLOAD_MSG.standardFailed);
}
