import { UPLOAD_STATE_PREFIX } from './upload-plan';

type ActiveUpload = { organizationId: string; stop: () => Promise<unknown> };
const active = new Set<ActiveUpload>();

/** Records an upload running in this tab, with how to cancel it; answers the function that forgets it. */
export function trackActiveUpload(organizationId: string, stop: () => Promise<unknown>): () => void {
  const entry: ActiveUpload = { organizationId, stop };
  active.add(entry);
  return () => active.delete(entry);
}

/** Removes every saved (resumable) upload state of the organization from this browser; answers the keys removed. */
function clearSavedUploads(organizationId: string): string[] {
  const prefix = `${UPLOAD_STATE_PREFIX}:${organizationId}:`;
  const removed: string[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) removed.push(key);
    }
    for (const key of removed) localStorage.removeItem(key);
  } catch {
    /* storage blocked: nothing was saved either */
  }
  return removed;
}

/**
 * The organization's uploads leave this browser: running ones are cancelled (the server upload aborted while
 * the session still allows it), then whatever resume state is left is removed, so the next person on this
 * browser cannot pick them up.
 */
export async function forgetUploads(organizationId: string): Promise<void> {
  const mine = [...active].filter((a) => a.organizationId === organizationId);
  await Promise.allSettled(mine.map((a) => a.stop()));
  clearSavedUploads(organizationId);
}
