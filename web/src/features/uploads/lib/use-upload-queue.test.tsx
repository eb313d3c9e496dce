import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UPLOAD_MSG } from '@strongroom/contracts';
import { stubTransport } from '@/test/upload-transport';
import { forgetUploads } from './saved-uploads';
import { useUploadQueue } from './use-upload-queue';

const file = (name: string) => new File([new Uint8Array(100)], name, { type: 'application/pdf' });

function setup(organizationId = 'org-1') {
  const stub = stubTransport();
  const onBatchSettled = vi.fn();
  const hook = renderHook(() =>
    useUploadQueue({
      organizationId,
      matterId: '6f1d9f4e-8a3b-4c1e-9d2a-1b2c3d4e5f60',
      parentId: null,
      transport: stub.net,
      onBatchSettled,
    }),
  );
  return { ...stub, hook, onBatchSettled };
}

describe('useUploadQueue', () => {
  it('reports a batch once, when its last file settles; a queue of refused files only is no batch', async () => {
    const { hook, putOf, onBatchSettled } = setup();
    act(() => hook.result.current.add([file('setup.exe')]));
    expect(hook.result.current.rows[0]!.state).toBe('error');
    expect(onBatchSettled).not.toHaveBeenCalled();

    act(() => hook.result.current.add([file('a.pdf'), file('b.pdf')]));
    act(() => hook.result.current.startIdle());
    await waitFor(() => expect(putOf('a.pdf') && putOf('b.pdf')).toBeTruthy());
    act(() => putOf('a.pdf')!.settle('"a"'));
    await waitFor(() => expect(hook.result.current.summary.done).toBe(1));
    expect(onBatchSettled).not.toHaveBeenCalled();
    act(() => putOf('b.pdf')!.settle('"b"'));
    await waitFor(() => expect(onBatchSettled).toHaveBeenCalledTimes(1));
    expect(onBatchSettled.mock.calls[0]![0]).toBe('some-failed');
    // Removing the refused row changes the queue but is no new batch.
    act(() => hook.result.current.remove(hook.result.current.rows[0]!.id));
    expect(onBatchSettled).toHaveBeenCalledTimes(1);
  });

  it('cancelling everything (closing the dialog) reports no batch', async () => {
    const { hook, puts, onBatchSettled } = setup();
    act(() => hook.result.current.add([file('a.pdf'), file('b.pdf')]));
    act(() => hook.result.current.startIdle());
    await waitFor(() => expect(puts).toHaveLength(2));
    await act(() => hook.result.current.cancelAll());
    expect(hook.result.current.rows.map((r) => [r.state, r.error])).toEqual([
      ['error', UPLOAD_MSG.aborted],
      ['error', UPLOAD_MSG.aborted],
    ]);
    expect(puts.every((p) => p.signal.aborted)).toBe(true);
    expect(onBatchSettled).not.toHaveBeenCalled();
  });

  it("a logout cancels the organization's running uploads like the Cancel button, and leaves another organization's", async () => {
    const mine = setup('org-1');
    const theirs = setup('org-2');
    act(() => mine.hook.result.current.add([file('a.pdf')]));
    act(() => theirs.hook.result.current.add([file('b.pdf')]));
    act(() => mine.hook.result.current.startIdle());
    act(() => theirs.hook.result.current.startIdle());
    await waitFor(() => expect(mine.puts.length + theirs.puts.length).toBe(2));
    await act(() => forgetUploads('org-1'));
    expect(mine.hook.result.current.rows[0]).toMatchObject({ state: 'error', error: UPLOAD_MSG.aborted });
    expect(mine.puts[0]!.signal.aborted).toBe(true);
    expect(theirs.hook.result.current.rows[0]!.state).toBe('uploading');
    expect(theirs.puts[0]!.signal.aborted).toBe(false);
  });
});
