/**
 * Undo from a success toast. A change the server can take back answers an undoId (valid 5 minutes, once, for the
 * person who made it); its success toast then carries an Undo action that sends POST /_api/undo. The server
 * checks the rest (expired, used, changed since, held or vaulted since) and answers why it refused.
 *
 * Here in lib/ because several features offer it (folders and files, matters, and later team administration).
 */
import { UNDO_MSG, type UndoOffer, type UndoRequest, type UndoResponse } from '@strongroom/contracts';
import { apiRequest } from './api-client';
import { errorMessage, isMfaCancelledError } from './api-error';
import { toast } from './toast';

/** How long a toast that offers Undo stays (the entry itself lasts 5 minutes on the server). */
export const UNDO_TOAST_MS = 10_000;

/** POST /_api/undo. */
export function undoChange(undoId: string): Promise<UndoResponse> {
  return apiRequest<UndoResponse>('/_api/undo', { body: { undoId } satisfies UndoRequest, fallbackMessage: UNDO_MSG.unavailable });
}

/**
 * Shows the success toast of a change (a title, or a title with a line beneath); when the answer offered an undo,
 * with an Undo action. The action works once: it toasts 'Undo operation successful.' and calls onUndone (to refresh what shows the object), or toasts
 * 'Undo failed' with the server's reason ('The action has expired or is no longer available.' when the entry
 * expired, was used or the object changed since).
 */
export function toastWithUndo(
  text: string | { title: string; description?: string },
  offer: UndoOffer,
  onUndone: (result: UndoResponse) => unknown,
  send: typeof undoChange = undoChange,
): void {
  const { undoId } = offer;
  const { title: message, description } = typeof text === 'string' ? { title: text, description: undefined } : text;
  if (!undoId) {
    if (description) toast.success(message, { description });
    else toast.success(message);
    return;
  }
  toast.success(message, { description, duration: UNDO_TOAST_MS, action: undoAction(undoId, onUndone, send) });
}

/**
 * The Undo action of a success toast, for a toast shown some other way (a countdown): works once, then toasts
 * 'Undo operation successful.' and calls onUndone, or toasts 'Undo failed' with the server's reason.
 */
export function undoAction(
  undoId: string,
  onUndone: (result: UndoResponse) => unknown,
  send: typeof undoChange = undoChange,
): { label: string; onClick: () => void } {
  let used = false;
  return {
    label: UNDO_MSG.action,
    onClick: () => {
      if (used) return;
      used = true;
      void send(undoId).then(
        async (result) => {
          toast.success(result.message || UNDO_MSG.success);
          await onUndone(result);
        },
        (err: unknown) => {
          if (isMfaCancelledError(err)) return;
          toast.error(UNDO_MSG.failedTitle, { description: errorMessage(err, UNDO_MSG.unavailable) });
        },
      );
    },
  };
}
