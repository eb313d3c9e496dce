import { describe, expect, it } from 'vitest';
import {
  canRemove,
  canRetry,
  newRows,
  percentOf,
  queueReducer,
  summarize,
  transferRate,
  type QueueAction,
  type UploadRow,
} from './upload-queue';

const file = (name: string, size = 1000) => new File([new Uint8Array(size)], name);
const refuseExe = (f: File) => (f.name.endsWith('.exe') ? 'Invalid file type.' : null);
const run = (rows: UploadRow[], ...actions: QueueAction[]) => actions.reduce(queueReducer, rows);

describe('the upload queue', () => {
  it('adds files as Ready rows; a refused file fails at once with its reason and can only be removed', () => {
    const rows = run([], { type: 'added', rows: newRows([file('brief.pdf'), file('setup.exe')], refuseExe) });
    expect(rows.map((r) => [r.file.name, r.state, r.error])).toEqual([
      ['brief.pdf', 'idle', null],
      ['setup.exe', 'error', 'Invalid file type.'],
    ]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
    expect(canRetry(rows[1]!)).toBe(false);
    expect(canRemove(rows[1]!)).toBe(true);
    // Nothing was attempted yet: no batch outcome.
    expect(summarize(rows)).toMatchObject({ total: 2, done: 0, active: false, outcome: null });
    expect(summarize(rows).idle.map((r) => r.file.name)).toEqual(['brief.pdf']);
  });

  it('follows a file through upload: progress and speed while uploading, then Uploaded at 100 %', () => {
    const [row] = newRows([file('brief.pdf', 1000)], () => null);
    let rows = run([row!], { type: 'started', id: row!.id }, { type: 'progress', id: row!.id, loaded: 250, speed: 500 });
    expect(rows[0]).toMatchObject({ state: 'uploading', loaded: 250, speed: 500 });
    expect(percentOf(rows[0]!)).toBe(25);
    expect(summarize(rows)).toMatchObject({ active: true, outcome: null });
    rows = run(rows, { type: 'succeeded', id: row!.id });
    expect(rows[0]).toMatchObject({ state: 'success', loaded: 1000, speed: 0 });
    expect(percentOf(rows[0]!)).toBe(100);
    expect(summarize(rows)).toMatchObject({ done: 1, active: false, outcome: 'all-succeeded' });
  });

  it('cancel goes through Cancelling to Failed with the reason; a late progress does not revive it; it can be retried', () => {
    const [row] = newRows([file('brief.pdf')], () => null);
    let rows = run([row!], { type: 'started', id: row!.id }, { type: 'cancelling', id: row!.id });
    expect(summarize(rows).active).toBe(true);
    rows = run(rows, { type: 'progress', id: row!.id, loaded: 900, speed: 1 }, { type: 'failed', id: row!.id, error: 'Upload aborted.' });
    expect(rows[0]).toMatchObject({ state: 'error', error: 'Upload aborted.', loaded: 0 });
    expect(canRetry(rows[0]!)).toBe(true);
    // A retry starts clean.
    rows = run(rows, { type: 'started', id: row!.id });
    expect(rows[0]).toMatchObject({ state: 'uploading', error: null, loaded: 0, resumedParts: null });
  });

  it('records a resume, and a batch with a failure is over once nothing runs or waits', () => {
    const [a, b] = newRows([file('a.pdf'), file('b.pdf')], () => null);
    let rows = run([a!, b!], { type: 'started', id: a!.id }, { type: 'resumed', id: a!.id, parts: 5 }, { type: 'started', id: b!.id });
    expect(rows[0]!.resumedParts).toBe(5);
    rows = run(rows, { type: 'failed', id: a!.id, error: 'Failed to upload chunk 6.' });
    expect(summarize(rows).outcome).toBeNull(); // b still runs
    rows = run(rows, { type: 'succeeded', id: b!.id });
    expect(summarize(rows)).toMatchObject({ done: 1, outcome: 'some-failed' });
    expect(run(rows, { type: 'removed', id: a!.id }).map((r) => r.file.name)).toEqual(['b.pdf']);
    expect(run(rows, { type: 'cleared' })).toEqual([]);
  });

  it('measures speed from the first progress of the attempt, and not in the first moments', () => {
    expect(transferRate(0, 1000, 100)).toBe(0);
    expect(transferRate(50_000, 150_000, 2000)).toBe(50_000);
  });
});
