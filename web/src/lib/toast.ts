import { useSyncExternalStore } from 'react';
import type * as SonnerModule from 'sonner';
import type { ExternalToast } from 'sonner';

/**
 * Toasts through sonner, loaded on the first toast rather than with every page: it keeps ~10 KB gzipped off
 * the sign-in page. Sonner replays toasts raised before its Toaster mounted, so nothing is lost.
 */
type Sonner = typeof SonnerModule;

let loading: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

export function loadSonner(): Promise<Sonner> {
  if (!loading) {
    loading = import('sonner');
    for (const l of listeners) l();
  }
  return loading;
}

function call(fn: (s: Sonner) => void): void {
  void loadSonner().then(fn);
}

export type ToastOptions = ExternalToast;

export const toast = {
  success: (message: string, options?: ToastOptions) => call((s) => s.toast.success(message, options)),
  error: (message: string, options?: ToastOptions) => call((s) => s.toast.error(message, options)),
  warning: (message: string, options?: ToastOptions) => call((s) => s.toast.warning(message, options)),
  info: (message: string, options?: ToastOptions) => call((s) => s.toast.info(message, options)),
  message: (message: string, options?: ToastOptions) => call((s) => s.toast.message(message, options)),
  dismiss: (id?: string | number) => {
    if (loading) call((s) => s.toast.dismiss(id));
  },
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once any toast was raised (the Toaster mounts then). */
export function useToasterNeeded(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => loading !== null,
    () => false,
  );
}
