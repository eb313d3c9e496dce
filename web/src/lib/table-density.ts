import { useCallback, useSyncExternalStore } from 'react';

export type TableDensity = 'comfortable' | 'compact';

/** Each user's row density for the matters and vault tables, kept in this browser under a key of their own. */
export const densityKey = (userId: string | number) => `strongroom.tableDensity.${userId}`;

/** Tables on the page follow a change made by any toggle at once (same tab), and other tabs through 'storage'. */
const CHANGED = 'strongroom:table-density';

function read(userId: string | number | undefined): TableDensity {
  if (userId === undefined) return 'comfortable';
  try {
    return localStorage.getItem(densityKey(userId)) === 'compact' ? 'compact' : 'comfortable';
  } catch {
    // Storage refused (private modes): the default density.
    return 'comfortable';
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The signed-in user's row density and a setter that remembers it for them. */
export function useTableDensity(userId: string | number | undefined): [TableDensity, (next: TableDensity) => void] {
  const density = useSyncExternalStore(
    subscribe,
    () => read(userId),
    () => 'comfortable' as const,
  );
  const setDensity = useCallback(
    (next: TableDensity) => {
      if (userId === undefined) return;
      try {
        localStorage.setItem(densityKey(userId), next);
      } catch {
        // Not remembered, but the tables still follow the choice for now.
      }
      window.dispatchEvent(new Event(CHANGED));
    },
    [userId],
  );
  return [density, setDensity];
}
