import { useSyncExternalStore } from 'react';

/** Below Tailwind's md breakpoint (768 px): phones, where lists show as cards. */
export const PHONE_QUERY = '(max-width: 767.98px)';

/**
 * Whether a CSS media query matches now, following changes (a window resized, a phone turned). Where the browser
 * cannot tell (no matchMedia), `fallback`.
 */
export function useMediaQuery(query: string, fallback = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback),
    () => fallback,
  );
}
