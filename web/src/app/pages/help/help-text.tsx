import type { ReactNode } from 'react';

/** A paragraph of help text. */
export function P({ children }: { children: ReactNode }) {
  return <p className="text-sm leading-relaxed text-foreground/90">{children}</p>;
}

/** A bulleted list of help text. */
export function Ul({ children }: { children: ReactNode }) {
  return (
    <ul className="grid list-disc gap-1.5 pl-5 text-sm leading-relaxed text-foreground/90 marker:text-muted-foreground">{children}</ul>
  );
}

/** A numbered list of steps. */
export function Ol({ children }: { children: ReactNode }) {
  return (
    <ol className="grid list-decimal gap-1.5 pl-5 text-sm leading-relaxed text-foreground/90 marker:text-muted-foreground">{children}</ol>
  );
}

/** A sub-heading inside a section. */
export function H3({ children }: { children: ReactNode }) {
  return <h3 className="pt-1 text-base font-semibold">{children}</h3>;
}

/** Inline code: a command, a file name, a path. */
export function Code({ children }: { children: ReactNode }) {
  return <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.8125rem] break-words">{children}</code>;
}

/** A command on a line of its own, scrollable sideways on a phone rather than widening the page. */
export function Command({ children }: { children: string }) {
  return (
    // Focusable, so a keyboard can scroll a long command on a phone.
    <pre
      tabIndex={0}
      className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-ring rounded-lg border border-border bg-muted/50 p-3 font-mono text-[0.8125rem] leading-relaxed"
    >
      <code>{children}</code>
    </pre>
  );
}

/** A keyboard key. */
export function Kbd({ children }: { children: ReactNode }) {
  return (
    <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs font-medium text-foreground shadow-[0_1px_0] shadow-border">
      {children}
    </kbd>
  );
}

/** A place in the app, as its menus name it (e.g. Settings → Profile). */
export function Where({ children }: { children: ReactNode }) {
  return <span className="font-medium text-foreground">{children}</span>;
}
