import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Inter, the app's typeface, ships with the app (self-hosted, no font service): the same letters on every system.
import '@fontsource-variable/inter';
// Sonner's stylesheet as a file: its runtime <style> injection is refused by the server's CSP.
import 'sonner/dist/styles.css';
import './index.css';
import { runLegacyStorageCleanup } from '@/lib/legacy-storage';
import { applyTheme, getTheme } from '@/lib/theme';
import { App } from '@/app/app';
import { preloadRoute } from '@/app/app-routes';
import { queryClient } from '@/app/query-client';
import { sessionQueryOptions } from '@/features/auth/api/get-session';

// Before anything reads storage: drop the earlier client's auth/user/session keys once per storage version.
try {
  runLegacyStorageCleanup(window.localStorage, window.sessionStorage);
} catch {
  /* storage unavailable */
}
applyTheme(getTheme());

// The session check and the page's code start together, before React renders: the signed-in pages wait for both.
void queryClient.prefetchQuery(sessionQueryOptions());
preloadRoute(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
