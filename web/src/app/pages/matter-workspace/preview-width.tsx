import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

/** Each person's preview panel width, in pixels, kept in this browser under a key of their own. */
export const previewWidthKey = (userId: string | number) => `strongroom.previewWidth.${userId}`;

/** The narrowest panel that still shows a page of a document, and the most of the window it may take. */
export const PREVIEW_MIN_PX = 320;
const PREVIEW_MAX_SHARE = 0.6;
/** One arrow key press; Page Up/Down move five times as far. */
const KEY_STEP_PX = 32;
/** A width is saved this long after the last change, so a drag writes once. */
const SAVE_DELAY_MS = 100;

function maxWidth(): number {
  return Math.max(PREVIEW_MIN_PX, Math.floor(window.innerWidth * PREVIEW_MAX_SHARE));
}

function clamp(px: number): number {
  return Math.min(maxWidth(), Math.max(PREVIEW_MIN_PX, Math.round(px)));
}

function readSaved(userId: string | number): number | null {
  try {
    const saved = Number(localStorage.getItem(previewWidthKey(userId)));
    return Number.isFinite(saved) && saved > 0 ? saved : null;
  } catch {
    // Storage refused (private modes): the panel's default width.
    return null;
  }
}

/**
 * The preview panel's width as its person left it (null: the default for the screen), and a setter that keeps a
 * new width for them, saved shortly after the last change.
 */
export function usePreviewWidth(userId: string | number): [number | null, (px: number | null) => void] {
  const [width, setWidth] = useState<number | null>(() => {
    const saved = readSaved(userId);
    return saved === null ? null : clamp(saved);
  });
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const set = (px: number | null) => {
    const next = px === null ? null : clamp(px);
    setWidth(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      try {
        if (next === null) localStorage.removeItem(previewWidthKey(userId));
        else localStorage.setItem(previewWidthKey(userId), String(next));
      } catch {
        // Not remembered; the panel keeps the width for now.
      }
    }, SAVE_DELAY_MS);
  };
  return [width, set];
}

type HandleProps = {
  /** The panel whose left edge this is (its width is read when a drag or a key starts from the default). */
  panel: React.RefObject<HTMLElement | null>;
  width: number | null;
  onWidth: (px: number | null) => void;
};

/**
 * The preview panel's left edge, from 1024 px: drag it, or focus it and use the arrow keys (Left widens the
 * panel, Right narrows it; Home the widest, End the narrowest); a double click or Enter gives back the default.
 */
export function PreviewResizeHandle({ panel, width, onWidth }: HandleProps) {
  // The width on screen, for the value announced while the panel has its default width.
  const [measured, setMeasured] = useState<number | null>(null);
  // After the commit: the panel (the parent) has its ref only once its children are laid out.
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    const update = () => setMeasured(el.getBoundingClientRect().width);
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [panel]);
  const current = () => width ?? panel.current?.getBoundingClientRect().width ?? PREVIEW_MIN_PX;
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const startX = e.clientX;
    const startWidth = current();
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    // The panel sits at the right: moving the pointer left widens it.
    const move = (ev: globalThis.PointerEvent) => onWidth(startWidth + (startX - ev.clientX));
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      target.removeEventListener('pointercancel', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
    target.addEventListener('pointercancel', up);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = {
      ArrowLeft: KEY_STEP_PX,
      ArrowRight: -KEY_STEP_PX,
      PageUp: 5 * KEY_STEP_PX,
      PageDown: -5 * KEY_STEP_PX,
    };
    if (e.key in steps) onWidth(current() + steps[e.key]!);
    else if (e.key === 'Home') onWidth(maxWidth());
    else if (e.key === 'End') onWidth(PREVIEW_MIN_PX);
    else if (e.key === 'Enter') onWidth(null);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize preview panel"
      aria-valuemin={PREVIEW_MIN_PX}
      aria-valuemax={maxWidth()}
      aria-valuenow={Math.round(width ?? measured ?? PREVIEW_MIN_PX)}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      onDoubleClick={() => onWidth(null)}
      className="absolute inset-y-3 -left-2.5 hidden w-2 cursor-col-resize touch-none rounded-full bg-border/60 transition-colors outline-none hover:bg-primary/40 focus-visible:bg-primary lg:block"
    />
  );
}
