import { describe, expect, it, vi } from 'vitest';
import { UNDO_MSG, type UndoResponse } from '@strongroom/contracts';
import { ApiError } from './api-error';
import { toast } from './toast';
import { toastWithUndo, UNDO_TOAST_MS } from './undo';

const done: UndoResponse = { success: true, message: 'Undo operation successful.', kind: 'node.rename', targetId: 'n1', matterId: 'm1' };
const flush = () => new Promise((r) => setTimeout(r, 0));

/** The Undo action the success toast was given. */
function actionOf(spy: ReturnType<typeof vi.spyOn>) {
  const options = spy.mock.calls[0]?.[1] as { action?: { label: string; onClick: (e?: unknown) => void }; duration?: number } | undefined;
  return options;
}

describe('toastWithUndo', () => {
  it('shows a plain success toast when the change offered no undo', () => {
    const success = vi.spyOn(toast, 'success').mockImplementation(() => {});
    toastWithUndo('"Docs" was renamed.', {}, vi.fn());
    expect(success).toHaveBeenCalledWith('"Docs" was renamed.');
  });

  it('offers Undo; clicking it undoes the change once, says so and refreshes', async () => {
    const success = vi.spyOn(toast, 'success').mockImplementation(() => {});
    const send = vi.fn().mockResolvedValue(done);
    const onUndone = vi.fn();
    toastWithUndo('"Docs" was renamed.', { undoId: 'u1' }, onUndone, send);
    const options = actionOf(success);
    expect(success.mock.calls[0]?.[0]).toBe('"Docs" was renamed.');
    expect(options?.duration).toBe(UNDO_TOAST_MS);
    expect(options?.action?.label).toBe('Undo');
    options!.action!.onClick();
    options!.action!.onClick(); // a double click sends once
    await flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith('u1');
    expect(success).toHaveBeenLastCalledWith('Undo operation successful.');
    expect(onUndone).toHaveBeenCalledWith(done);
  });

  it('says "Undo failed" with the unavailable text when the entry expired, was used or the object changed', async () => {
    const success = vi.spyOn(toast, 'success').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error').mockImplementation(() => {});
    const send = vi.fn().mockRejectedValue(new ApiError({ status: 410, code: 'CONFLICT_ERROR', message: UNDO_MSG.unavailable }));
    const onUndone = vi.fn();
    toastWithUndo('Matter was updated.', { undoId: 'u2' }, onUndone, send);
    actionOf(success)!.action!.onClick();
    await flush();
    expect(error).toHaveBeenCalledWith('Undo failed', { description: 'The action has expired or is no longer available.' });
    expect(onUndone).not.toHaveBeenCalled();
  });

  it('gives the server’s reason when the matter became read-only meanwhile', async () => {
    const success = vi.spyOn(toast, 'success').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error').mockImplementation(() => {});
    const send = vi
      .fn()
      .mockRejectedValue(new ApiError({ status: 409, code: 'CONFLICT_ERROR', message: 'Actions are disabled due to legal hold' }));
    toastWithUndo('"Docs" was moved.', { undoId: 'u3' }, vi.fn(), send);
    actionOf(success)!.action!.onClick();
    await flush();
    expect(error).toHaveBeenCalledWith('Undo failed', { description: 'Actions are disabled due to legal hold' });
  });
});
