import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_MSG } from '@strongroom/contracts';
import { ApiError } from '@/lib/api-error';
import { stubTransport } from '@/test/upload-transport';
import { UploadAbortedError } from './put-with-progress';
import { abortUpload, checkFile, runUpload } from './run-upload';
import { uploadStorageKey } from './upload-plan';

const file = (name: string, size: number, type = '') => new File([new Uint8Array(size)], name, { type });

describe('checkFile', () => {
  it('accepts allowed types, also without a browser type', () => {
    expect(checkFile(file('brief.pdf', 10, 'application/pdf'))).toBeNull();
    expect(checkFile(file('scan.TIFF', 10))).toBeNull();
  });
  it('refuses executables, scripts and unknown types', () => {
    expect(checkFile(file('setup.exe', 10))).toBe(UPLOAD_MSG.invalidFileType);
    expect(checkFile(file('page.html', 10, 'text/html'))).toBe(UPLOAD_MSG.invalidFileType);
    expect(checkFile(file('brief.pdf', 10, 'text/html'))).toBe(UPLOAD_MSG.invalidFileType);
  });
  it('applies the file-name rules and refuses empty or oversized files', () => {
    expect(checkFile(file('.hidden.pdf', 10))).toBe("File name cannot start with '.'.");
    expect(checkFile(file('a:b.pdf', 10))).toBe('File name contains invalid characters.');
    expect(checkFile(file('empty.pdf', 0))).toBe(UPLOAD_MSG.fileEmpty);
    expect(checkFile(file('big.pdf', 20), 10)).toBe(UPLOAD_MSG.fileTooLarge('10Bytes'));
  });
});

const MB = 1024 * 1024;
const ORG = 'org-1';
const TARGET = { organizationId: ORG, matterId: '6f1d9f4e-8a3b-4c1e-9d2a-1b2c3d4e5f60', parentId: null };

/** A 120 MB file (12 parts of 10 MB) without 120 MB in memory: each slice is a small stand-in. */
function bigFile(size = 120 * MB): File {
  return {
    name: 'evidence-archive.zip',
    size,
    type: 'application/zip',
    lastModified: 1_700_000_000_000,
    slice: (s: number, e: number) => new Blob([`${s}-${e}`]),
  } as unknown as File;
}

const savedKey = (file: File) => uploadStorageKey(ORG, file);
const savedState = (file: File) =>
  JSON.parse(localStorage.getItem(savedKey(file)) ?? 'null') as {
    uploadId: string;
    uploadedChunks: { PartNumber: number; ETag: string }[];
  } | null;

function saveUpload(file: File, chunks: number[]) {
  localStorage.setItem(
    savedKey(file),
    JSON.stringify({
      fileName: file.name,
      fileType: 'application/zip',
      fileSize: file.size,
      isMultipart: true,
      uploadId: 'up-saved',
      s3Key: 'k-saved',
      matterId: TARGET.matterId,
      parentId: null,
      chunkCount: 12,
      uploadedChunks: chunks.map((n) => ({ PartNumber: n, ETag: `saved-${n}` })),
      startTime: '2026-01-01T00:00:00.000Z',
      organizationId: ORG,
      lastModified: file.lastModified,
    }),
  );
}

describe('the multipart runner', () => {
  beforeEach(() => localStorage.clear());

  it('resumes a saved upload: asks the store which parts it has and sends only the others', async () => {
    const file = bigFile();
    saveUpload(file, [1, 2, 3]);
    const stored = [1, 2, 3, 4, 5].map((n) => ({ partNumber: n, etag: `stored-${n}`, size: 10 * MB }));
    const { net, started } = stubTransport({ autoEtag: true, listed: { parts: stored, listable: true } });
    const progress: number[] = [];
    const onResume = vi.fn();
    await runUpload(file, TARGET, { onProgress: (n) => progress.push(n), onResume }, new AbortController().signal, net);

    expect(net.listParts).toHaveBeenCalledWith('up-saved', 'k-saved', expect.anything());
    expect(net.init).not.toHaveBeenCalled();
    expect(onResume).toHaveBeenCalledWith(5);
    expect(started()).toEqual([6, 7, 8, 9, 10, 11, 12]);
    expect(progress[0]).toBe(50 * MB);
    expect(net.complete).toHaveBeenCalledTimes(1);
    expect(net.complete.mock.calls[0]![0]).toMatchObject({
      uploadId: 'up-saved',
      s3Key: 'k-saved',
      parts: [
        ...stored.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })),
        ...[6, 7, 8, 9, 10, 11, 12].map((n) => ({ PartNumber: n, ETag: `etag-${n}` })),
      ],
    });
    expect(savedState(file)).toBeNull();
  });

  it('trusts the saved parts when the store cannot list them, and starts afresh when the server no longer knows the upload', async () => {
    const file = bigFile();
    saveUpload(file, [1, 2]);
    const unlisted = stubTransport({ autoEtag: true, listed: { parts: [], listable: false } });
    await runUpload(file, TARGET, { onProgress: () => {} }, new AbortController().signal, unlisted.net);
    expect(unlisted.started()).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(unlisted.net.complete.mock.calls[0]![0].parts?.slice(0, 2)).toEqual([
      { PartNumber: 1, ETag: 'saved-1' },
      { PartNumber: 2, ETag: 'saved-2' },
    ]);

    saveUpload(file, [1, 2]);
    const gone = stubTransport({ autoEtag: true, listed: new ApiError({ status: 404, code: 'NOT_FOUND', message: 'Upload not found.' }) });
    await runUpload(file, TARGET, { onProgress: () => {} }, new AbortController().signal, gone.net);
    expect(gone.net.init).toHaveBeenCalledTimes(1);
    expect(gone.started()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(gone.net.complete.mock.calls[0]![0]).toMatchObject({ uploadId: 'up-new' });
  });

  it('runs five parts at a time; one failing part stops the other lanes and nothing is completed', async () => {
    const file = bigFile();
    const { net, started, part, puts } = stubTransport();
    const run = runUpload(file, TARGET, { onProgress: () => {} }, new AbortController().signal, net);
    const outcome = run.then(
      () => null,
      (e: unknown) => e,
    );
    await vi.waitFor(() => expect(started()).toEqual([1, 2, 3, 4, 5]));
    // Part 1 is stored (and saved for a resume); its lane moves on to part 6.
    part(1).settle('"etag-1"');
    await vi.waitFor(() => expect(started()).toEqual([1, 2, 3, 4, 5, 6]));
    expect(savedState(file)?.uploadedChunks).toEqual([{ PartNumber: 1, ETag: 'etag-1' }]);

    part(3).fail(new Error(UPLOAD_MSG.networkError));
    const error = (await outcome) as Error;
    expect(error.message).toBe(UPLOAD_MSG.chunkFailed(3));
    // Every other part in flight was told to stop, no further part was started, and nothing was completed.
    expect(puts.filter((p) => p.partNumber !== 1 && p.partNumber !== 3).every((p) => p.signal.aborted)).toBe(true);
    expect(started()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(net.complete).not.toHaveBeenCalled();
    // What was stored stays saved, so a retry resumes after part 1.
    expect(savedState(file)).toMatchObject({ uploadId: 'up-new', uploadedChunks: [{ PartNumber: 1, ETag: 'etag-1' }] });
  });

  it('a missing ETag fails the upload with its own text', async () => {
    const file = bigFile();
    const { net, started, part } = stubTransport();
    const outcome = runUpload(file, TARGET, { onProgress: () => {} }, new AbortController().signal, net).then(
      () => null,
      (e: unknown) => e as Error,
    );
    await vi.waitFor(() => expect(started()).toHaveLength(5));
    part(2).settle(null);
    expect((await outcome)?.message).toBe(UPLOAD_MSG.etagMissing);
    expect(net.complete).not.toHaveBeenCalled();
  });

  it('cancel stops every lane, aborts on the server, and a part finishing late does not bring the saved state back', async () => {
    const file = bigFile();
    // The store answers one part after the cancel (the request was already on its way).
    const { net, started, part } = stubTransport({ ignoreAbort: true });
    const controller = new AbortController();
    const outcome = runUpload(file, TARGET, { onProgress: () => {} }, controller.signal, net).then(
      () => null,
      (e: unknown) => e,
    );
    await vi.waitFor(() => expect(started()).toEqual([1, 2, 3, 4, 5]));
    expect(savedState(file)).not.toBeNull();

    controller.abort();
    expect(await abortUpload(file, ORG, net)).toBeNull();
    expect(net.abort).toHaveBeenCalledWith({ s3Key: 'k-new', uploadId: 'up-new' });
    expect(savedState(file)).toBeNull();

    part(4).settle('"etag-4"');
    for (const n of [1, 2, 3, 5]) part(n).fail(new UploadAbortedError());
    expect(await outcome).toBeInstanceOf(UploadAbortedError);
    expect(savedState(file)).toBeNull();
    expect(started()).toEqual([1, 2, 3, 4, 5]);
    expect(net.complete).not.toHaveBeenCalled();
  });

  it('clears the saved state even when the server cannot abort, and says so', async () => {
    const file = bigFile();
    saveUpload(file, [1]);
    const { net } = stubTransport();
    net.abort.mockRejectedValueOnce(new Error('down'));
    expect(await abortUpload(file, ORG, net)).toBe(UPLOAD_MSG.abortServerFailed);
    expect(savedState(file)).toBeNull();
  });

  it('sends a file under 100 MB in one PUT and registers it', async () => {
    const file = new File([new Uint8Array(2048)], 'brief.pdf', { type: 'application/pdf' });
    const { net, puts } = stubTransport({ autoEtag: true });
    await runUpload(file, TARGET, { onProgress: () => {} }, new AbortController().signal, net);
    expect(puts).toHaveLength(1);
    expect(net.init).not.toHaveBeenCalled();
    expect(net.complete).toHaveBeenCalledWith(
      expect.objectContaining({ fileName: 'brief.pdf', s3Key: 'k-new', fileSize: 2048 }),
      expect.anything(),
    );
    expect(net.complete.mock.calls[0]![0]).not.toHaveProperty('uploadId');
  });
});
