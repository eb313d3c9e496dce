import { LEGACY_STORAGE_VERSION } from '@strongroom/contracts';

/** Remembers which storage version's cleanup already ran. */
export const STORAGE_VERSION_KEY = 'strongroom.storageVersion';

/** Key prefixes of the earlier client's auth, organization, user and session state, removed at start so no stale credentials linger. */
const LEGACY_PREFIXES = ['auth', 'sb-', 'supabase', 'organization', 'org_', 'user', 'session', 'profile'];

/**
 * Our own keys live under 'strongroom.' (theme, storage version, system MFA token) and are never legacy.
 * Saved upload state is kept whatever its name, so a cleanup never throws away a resumable upload.
 */
function isProtected(key: string): boolean {
  const k = key.toLowerCase();
  return k.startsWith('strongroom.') || k.includes('upload');
}

export function isLegacyKey(key: string): boolean {
  if (isProtected(key)) return false;
  const k = key.toLowerCase();
  return LEGACY_PREFIXES.some((prefix) => k.startsWith(prefix));
}

function keysOf(store: Storage): string[] {
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key !== null) keys.push(key);
  }
  return keys;
}

/**
 * Runs once per storage version: removes the legacy keys from localStorage (and sessionStorage when given),
 * then records the version in localStorage. Returns the keys it removed. Storage that throws (private modes,
 * disabled cookies) is left alone.
 */
export function runLegacyStorageCleanup(local: Storage, session?: Storage, version: string = LEGACY_STORAGE_VERSION): string[] {
  try {
    if (local.getItem(STORAGE_VERSION_KEY) === version) return [];
    const removed: string[] = [];
    for (const store of session ? [local, session] : [local]) {
      for (const key of keysOf(store)) {
        if (isLegacyKey(key)) {
          store.removeItem(key);
          removed.push(key);
        }
      }
    }
    local.setItem(STORAGE_VERSION_KEY, version);
    return removed;
  } catch {
    return [];
  }
}
