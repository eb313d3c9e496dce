import { useCallback, useEffect, useReducer, useRef } from 'react';
import { UPLOAD_MSG } from '@strongroom/contracts';
import { isApiError } from '@/lib/api-error';
import {
  abortUpload,
  checkFile,
  httpTransport,
  isRetryableUploadError,
  runUpload,
  uploadErrorMessage,
  type UploadTarget,
  type UploadTransport,
} from './run-upload';
import { trackActiveUpload } from './saved-uploads';
import { isMultipart } from './upload-plan';
import { newRows, queueReducer, summarize, transferRate, type ConflictChoice, type QueueSummary, type UploadRow } from './upload-queue';

/** The server refused the name as taken (409 NAME_TAKEN). */
function isNameTaken(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && (error.details as { reason?: string } | undefined)?.reason === 'NAME_TAKEN';
}

export type UseUploadQueueOptions = Omit<UploadTarget, 'onConflict'> & {
  /** Names of the files the target folder holds, to ask before uploading over one of them. */
  existingNames?: readonly string[];
  /**
   * The batch is over (every file attempted, nothing running): all succeeded or some failed. May answer a
   * cleanup, run when the queue changes again (e.g. a pending auto-close).
   */
  onBatchSettled?: (outcome: NonNullable<QueueSummary['outcome']>, rows: UploadRow[]) => void | (() => void);
  /** The network the uploads use (tests pass a stub). */
  transport?: UploadTransport;
  now?: () => number;
};

const perfNow = () => performance.now();

/**
 * Runs the Upload Files queue: adds files (refusing those that break a rule), uploads each with its progress and
 * speed, cancels (the multipart upload aborted on the server too), retries, and reports each finished batch
 * once. A logout or another user signing in cancels the running uploads the way the Cancel button does.
 */
export function useUploadQueue({
  organizationId,
  matterId,
  parentId,
  existingNames,
  onBatchSettled,
  transport = httpTransport,
  now = perfNow,
}: UseUploadQueueOptions) {
  const [rows, dispatch] = useReducer(queueReducer, []);
  const controllers = useRef(new Map<string, AbortController>());
  // True while no attempt since the last report: a queue of refused files only is not a batch.
  const batchReported = useRef(true);
  const settled = useRef(onBatchSettled);
  // The latest callback (it closes over the dialog's current props); effects run in order, so before the report.
  useEffect(() => {
    settled.current = onBatchSettled;
  });

  const cancel = useCallback(
    async (row: UploadRow) => {
      dispatch({ type: 'cancelling', id: row.id });
      controllers.current.get(row.id)?.abort();
      const failure = isMultipart(row.file.size) ? await abortUpload(row.file, organizationId, transport) : null;
      dispatch({ type: 'failed', id: row.id, error: failure ?? UPLOAD_MSG.aborted });
    },
    [organizationId, transport],
  );

  const start = useCallback(
    async (row: UploadRow) => {
      const controller = new AbortController();
      controllers.current.set(row.id, controller);
      const untrack = trackActiveUpload(organizationId, () => cancel(row));
      batchReported.current = false;
      const startedAt = now();
      let firstLoaded: number | null = null;
      dispatch({ type: 'started', id: row.id });
      try {
        const onConflict = row.conflict && row.choice !== 'skip' ? row.choice : undefined;
        await runUpload(
          row.file,
          { organizationId, matterId, parentId, ...(onConflict ? { onConflict } : {}) },
          {
            onProgress: (loaded) => {
              firstLoaded ??= loaded;
              dispatch({ type: 'progress', id: row.id, loaded, speed: transferRate(firstLoaded, loaded, now() - startedAt) });
            },
            onResume: (parts) => dispatch({ type: 'resumed', id: row.id, parts }),
          },
          controller.signal,
          transport,
        );
        dispatch({ type: 'succeeded', id: row.id });
      } catch (error) {
        if (controller.signal.aborted) return; // cancel() settles the row
        // The name was taken after the dialog looked (or it did not know): ask, as for a name it knew.
        if (!row.conflict && isNameTaken(error)) {
          dispatch({ type: 'conflict', id: row.id });
          return;
        }
        dispatch({ type: 'failed', id: row.id, error: uploadErrorMessage(error), retryable: isRetryableUploadError(error) });
      } finally {
        untrack();
        controllers.current.delete(row.id);
      }
    },
    [cancel, matterId, organizationId, parentId, transport, now],
  );

  const summary = summarize(rows);

  useEffect(() => {
    if (batchReported.current || !summary.outcome) return;
    batchReported.current = true;
    return settled.current?.(summary.outcome, rows) ?? undefined;
  }, [rows, summary.outcome]);

  const taken = new Set((existingNames ?? []).map((n) => n.toLowerCase()));
  const add = (files: Iterable<File>) =>
    dispatch({
      type: 'added',
      rows: newRows(
        files,
        (f) => checkFile(f),
        (f) => taken.has(f.name.toLowerCase()),
      ),
    });
  const choose = useCallback((id: string, choice: ConflictChoice) => dispatch({ type: 'chose', id, choice }), []);
  const chooseForAll = useCallback((choice: ConflictChoice) => dispatch({ type: 'choseForAll', choice }), []);
  const remove = useCallback((id: string) => dispatch({ type: 'removed', id }), []);
  const clear = useCallback(() => dispatch({ type: 'cleared' }), []);
  /** Starts every file waiting; a file the person chose to skip leaves the list instead. */
  const startIdle = () =>
    summary.idle.forEach((r) => {
      if (r.conflict && r.choice === 'skip') dispatch({ type: 'removed', id: r.id });
      else void start(r);
    });
  /** Cancels every running upload; the batch is not reported (the user chose to stop it). */
  const cancelAll = async () => {
    batchReported.current = true;
    await Promise.all(rows.filter((r) => r.state === 'uploading').map((r) => cancel(r)));
  };

  return { rows, summary, add, choose, chooseForAll, start, startIdle, cancel, cancelAll, remove, clear };
}
