import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
const THEME_STORAGE_KEY = 'strongroom.theme';
const DEFAULT_THEME: Theme = 'dark';

const listeners = new Set<() => void>();

function readTheme(): Theme {
  try {
    const saved = window.localStorage.getItem(THEME_STORAGE_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    /* storage blocked */
  }
  return DEFAULT_THEME;
}

/** Mirrors public/theme-init.js, which applies the same before first paint. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

let current: Theme | null = null;

export function getTheme(): Theme {
  if (current === null) current = readTheme();
  return current;
}

export function setTheme(theme: Theme): void {
  current = theme;
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    /* the choice lasts for this page only */
  }
  applyTheme(theme);
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, getTheme, () => DEFAULT_THEME);
}
