/**
 * What a signed-in user leaves behind in this browser is cleaned up when the session ends on purpose (logout)
 * or when someone else signs in. Features register what to clean; app/ wires them, so features stay apart.
 */
export type SessionOwner = { userId: number; organizationId: string };
type Handler = (owner: SessionOwner) => Promise<void> | void;

const handlers = new Set<Handler>();

/** Registers a clean-up run for the user whose session ends; answers the unregister function. */
export function onSessionEnd(handler: Handler): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

/** Runs every clean-up; one failing does not stop the others, and none makes the logout fail. */
async function runSessionEnd(owner: SessionOwner): Promise<void> {
  await Promise.allSettled([...handlers].map(async (h) => h(owner)));
}

/** Who was last signed in on this browser (kept across reloads, so a change of user is seen after a restart too). */
export const LAST_OWNER_KEY = 'strongroom.lastUser';

function readOwner(): SessionOwner | null {
  try {
    const raw = localStorage.getItem(LAST_OWNER_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<SessionOwner>;
    return typeof v.userId === 'number' && typeof v.organizationId === 'string'
      ? { userId: v.userId, organizationId: v.organizationId }
      : null;
  } catch {
    return null;
  }
}

function writeOwner(owner: SessionOwner | null): void {
  try {
    if (owner) localStorage.setItem(LAST_OWNER_KEY, JSON.stringify(owner));
    else localStorage.removeItem(LAST_OWNER_KEY);
  } catch {
    /* storage blocked: nothing was kept either */
  }
}

/**
 * Called with each signed-in user the session answer names. When it is not the user last seen on this browser,
 * the earlier user's leftovers are cleaned before the new user works.
 */
export async function noteSignedInUser(owner: SessionOwner): Promise<void> {
  const last = readOwner();
  if (last && (last.userId !== owner.userId || last.organizationId !== owner.organizationId)) await runSessionEnd(last);
  writeOwner(owner);
}

/** Logout: the user's leftovers go and nobody is recorded as signed in. */
export async function endSession(owner: SessionOwner | null): Promise<void> {
  if (owner) await runSessionEnd(owner);
  writeOwner(null);
}
