import { lazy, Suspense } from 'react';
import { useTheme } from '@/lib/theme';
import { loadSonner, useToasterNeeded } from '@/lib/toast';

const Sonner = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/**
 * The app's toasts (raise them with `toast` from '@/lib/toast'). Colours come from the theme tokens
 * (src/index.css) instead of sonner's richColors, whose success toast fails contrast. The bottom offset
 * follows --sr-toast-offset so the session-expiring notice, which sits bottom-right too, never covers a toast.
 */
export function Toaster() {
  const theme = useTheme();
  const needed = useToasterNeeded();
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Sonner
        theme={theme}
        position="bottom-right"
        closeButton
        duration={5000}
        visibleToasts={4}
        offset={{ bottom: 'var(--sr-toast-offset, 24px)', right: 24 }}
        containerAriaLabel="Notifications area"
        // An open modal dialog turns pointer events off outside itself; toasts (and their Undo action) stay usable.
        style={{ pointerEvents: 'auto' }}
      />
    </Suspense>
  );
}
