/**
 * The Upload Files dialog's queue as plain state: one row per file added, its status (idle, uploading,
 * cancelling, success, error), its progress and speed, and what the batch came to. No React and no network here:
 * use-upload-queue.ts runs the uploads and feeds the results in.
 */
export type UploadState = 'idle' | 'uploading' | 'cancelling' | 'success' | 'error';

export type UploadRow = {
  id: string;
  file: File;
  state: UploadState;
  /** Bytes stored so far. */
  loaded: number;
  /** Bytes per second over the current attempt. */
  speed: number;
  error: string | null;
  /** The file breaks a rule: it cannot be retried, only removed. */
  invalid: boolean;
  /** The last failure may pass on another try (a dropped connection, a server error); a refusal will not. */
  retryable: boolean;
  /** A resumed multipart upload: how many parts the store already had. */
  resumedParts: number | null;
  /** The folder already holds this name: the person chooses what happens (a new version by default). */
  conflict: boolean;
  choice: ConflictChoice;
};

/** What to do with a file whose name the folder holds already. */
export type ConflictChoice = 'newVersion' | 'keepBoth' | 'skip';
export const CONFLICT_CHOICES: { value: ConflictChoice; label: string }[] = [
  { value: 'newVersion', label: 'Upload as a new version' },
  { value: 'keepBoth', label: 'Keep both' },
  { value: 'skip', label: 'Skip' },
];

export type QueueAction =
  | { type: 'added'; rows: UploadRow[] }
  | { type: 'started'; id: string }
  | { type: 'progress'; id: string; loaded: number; speed: number }
  | { type: 'resumed'; id: string; parts: number }
  | { type: 'cancelling'; id: string }
  | { type: 'succeeded'; id: string }
  | { type: 'failed'; id: string; error: string; retryable?: boolean }
  | { type: 'removed'; id: string }
  | { type: 'conflict'; id: string }
  | { type: 'chose'; id: string; choice: ConflictChoice }
  | { type: 'choseForAll'; choice: ConflictChoice }
  | { type: 'cleared' };

const STATE_LABEL: Record<UploadState, string> = {
  idle: 'Ready',
  uploading: 'Uploading',
  cancelling: 'Cancelling',
  success: 'Uploaded',
  error: 'Failed',
};

/** A row's state in words: a file refused before anything was sent is 'Not allowed', not a failure. */
export function stateLabel(row: UploadRow): string {
  return row.invalid ? 'Not allowed' : STATE_LABEL[row.state];
}
let rowSeq = 0;

/** Rows for newly added files: a file that breaks a rule (`check` answers its text) is failed at once, for good. */
export function newRows(
  files: Iterable<File>,
  check: (file: File) => string | null,
  taken: (file: File) => boolean = () => false,
): UploadRow[] {
  return [...files].map((file) => {
    const problem = check(file);
    rowSeq += 1;
    return {
      id: `u${rowSeq}`,
      file,
      state: problem ? 'error' : 'idle',
      loaded: 0,
      speed: 0,
      error: problem,
      invalid: problem !== null,
      retryable: problem === null,
      resumedParts: null,
      conflict: problem === null && taken(file),
      choice: 'newVersion',
    };
  });
}

function patch(rows: UploadRow[], id: string, change: Partial<UploadRow>): UploadRow[] {
  return rows.map((r) => (r.id === id ? { ...r, ...change } : r));
}

export function queueReducer(rows: UploadRow[], action: QueueAction): UploadRow[] {
  switch (action.type) {
    case 'added':
      return [...rows, ...action.rows];
    case 'started':
      return patch(rows, action.id, { state: 'uploading', error: null, loaded: 0, speed: 0, resumedParts: null, retryable: true });
    case 'progress':
      // A late progress event never revives a row that was cancelled or has settled.
      return rows.map((r) => (r.id === action.id && r.state === 'uploading' ? { ...r, loaded: action.loaded, speed: action.speed } : r));
    case 'resumed':
      return patch(rows, action.id, { resumedParts: action.parts });
    case 'cancelling':
      return patch(rows, action.id, { state: 'cancelling' });
    case 'succeeded':
      return rows.map((r) => (r.id === action.id ? { ...r, state: 'success', loaded: r.file.size, speed: 0 } : r));
    case 'failed':
      return patch(rows, action.id, { state: 'error', error: action.error, speed: 0, retryable: action.retryable ?? true });
    case 'removed':
      return rows.filter((r) => r.id !== action.id);
    case 'conflict':
      // The server said the name is taken: the row waits for the person's choice.
      return patch(rows, action.id, { state: 'idle', conflict: true, choice: 'newVersion', error: null, loaded: 0, speed: 0 });
    case 'chose':
      return patch(rows, action.id, { choice: action.choice });
    case 'choseForAll':
      return rows.map((r) => (r.conflict && r.state === 'idle' ? { ...r, choice: action.choice } : r));
    case 'cleared':
      return [];
  }
}

function isActive(row: UploadRow): boolean {
  return row.state === 'uploading' || row.state === 'cancelling';
}

/** A failed row that may be sent again with a chance to pass (a refused file may only be removed). */
export function canRetry(row: UploadRow): boolean {
  return row.state === 'error' && !row.invalid && row.retryable;
}

export function canRemove(row: UploadRow): boolean {
  return row.state === 'idle' || row.state === 'error';
}

/** Whole percent of the file stored. */
export function percentOf(row: UploadRow): number {
  return row.file.size ? Math.round((row.loaded / row.file.size) * 100) : 0;
}

/** Bytes per second since the attempt started, counted from the first progress (a resume starts above 0). */
export function transferRate(firstLoaded: number, loaded: number, elapsedMs: number): number {
  const seconds = elapsedMs / 1000;
  return seconds > 0.2 ? (loaded - firstLoaded) / seconds : 0;
}

export type QueueSummary = {
  total: number;
  done: number;
  /** Bytes stored and bytes to store over the files that may be sent (refused ones left out). */
  loadedBytes: number;
  totalBytes: number;
  idle: UploadRow[];
  active: boolean;
  /** Nothing runs and nothing waits: 'all-succeeded' or 'some-failed'; null while the batch is not over or empty. */
  outcome: 'all-succeeded' | 'some-failed' | null;
};

export function summarize(rows: UploadRow[]): QueueSummary {
  const idle = rows.filter((r) => r.state === 'idle');
  const active = rows.some(isActive);
  const done = rows.filter((r) => r.state === 'success').length;
  const over = rows.length > 0 && !active && idle.length === 0;
  const sendable = rows.filter((r) => !r.invalid);
  const loadedBytes = sendable.reduce((n, r) => n + (r.state === 'success' ? r.file.size : r.loaded), 0);
  const totalBytes = sendable.reduce((n, r) => n + r.file.size, 0);
  return {
    total: rows.length,
    done,
    loadedBytes,
    totalBytes,
    idle,
    active,
    outcome: over ? (done === rows.length ? 'all-succeeded' : 'some-failed') : null,
  };
}
