import { vi } from 'vitest';
import type { MultipartCompleteRequest, NodeDto, PresignedUrlRequest, UploadPartsResponse } from '@strongroom/contracts';
import { UploadAbortedError } from '@/features/uploads/lib/put-with-progress';
import type { UploadTransport } from '@/features/uploads/lib/run-upload';

type HeldPut = {
  fileName: string;
  /** 0 for a single PUT. */
  partNumber: number;
  signal: AbortSignal;
  /** Reports bytes sent so far, as the browser's upload progress does. */
  progress: (loaded: number) => void;
  settle: (etag: string | null) => void;
  fail: (e: Error) => void;
};

/**
 * The upload API and the store, in memory. Each part's PUT waits until the test settles it (or settles at once
 * when `autoEtag` is on); a PUT rejects as the real one does when its signal aborts, unless `ignoreAbort`.
 */
export function stubTransport({ autoEtag = false, ignoreAbort = false, listed = null as UploadPartsResponse | Error | null } = {}) {
  const puts: HeldPut[] = [];
  const net = {
    presign: vi.fn(async (body: PresignedUrlRequest) => ({
      url: `https://store.test/object?${new URLSearchParams({ file: body.fileName, partNumber: String(body.partNumber ?? 0) }).toString()}`,
      s3Key: body.s3Key ?? 'k-new',
      method: 'PUT' as const,
      headers: {},
      expiresAt: '2030-01-01T00:00:00.000Z',
    })),
    init: vi.fn(async () => ({ uploadId: 'up-new', s3Key: 'k-new' })),
    listParts: vi.fn(async () => {
      if (listed instanceof Error) throw listed;
      return listed ?? { parts: [], listable: true };
    }),
    complete: vi.fn(async (_body: MultipartCompleteRequest, _signal?: AbortSignal) => ({ file: {} as NodeDto })),
    abort: vi.fn(async (_body: { s3Key: string; uploadId: string }) => ({ success: true as const })),
    put: vi.fn((url: string, _body: Blob, _headers: Record<string, string>, onProgress: (n: number) => void, signal: AbortSignal) => {
      const params = new URL(url).searchParams;
      const partNumber = Number(params.get('partNumber'));
      return new Promise<string | null>((resolve, reject) => {
        const held: HeldPut = {
          fileName: params.get('file')!,
          partNumber,
          signal,
          progress: onProgress,
          settle: resolve,
          fail: reject,
        };
        puts.push(held);
        if (!ignoreAbort) signal.addEventListener('abort', () => reject(new UploadAbortedError()), { once: true });
        if (autoEtag) held.settle(`"etag-${partNumber}"`);
      });
    }),
  } satisfies UploadTransport;
  const started = () => puts.map((p) => p.partNumber).sort((a, b) => a - b);
  const part = (n: number) => puts.find((p) => p.partNumber === n)!;
  /** The latest PUT of a file. */
  const putOf = (fileName: string) => puts.findLast((p) => p.fileName === fileName);
  return { net, puts, started, part, putOf };
}
