import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export type Mounted = { container: HTMLElement; root: Root; unmount: () => void };

/** Renders into a fresh element of the document (dialogs portal into document.body). */
export function mount(node: ReactNode, client: QueryClient = testQueryClient()): Mounted {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  act(() => root.render(<QueryClientProvider client={client}>{node}</QueryClientProvider>));
  return {
    container,
    root,
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}

/** Queries fail at once in tests: no retries with backoff. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** Waits (letting React and promises run) until `check` passes; fails with its last error after 3 s. */
export async function waitFor<T>(check: () => T, timeoutMs = 3000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await act(async () => {
        await new Promise((r) => setTimeout(r, 10));
      });
    }
  }
}

/** The control a visible label names (label[for] -> id). */
export function byLabel(label: string, scope: ParentNode = document.body): HTMLInputElement | HTMLTextAreaElement {
  const l = [...scope.querySelectorAll('label')].find((x) => x.textContent?.trim() === label);
  if (!l) throw new Error(`no label ${label}`);
  const control = document.getElementById(l.htmlFor);
  if (!control) throw new Error(`no control for ${label}`);
  return control as HTMLInputElement;
}

/** Types a new value the way a user does (React reads the native value on the input event). */
export function typeInto(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export function click(el: Element): void {
  act(() => {
    (el as HTMLElement).click();
  });
}

export function byText(text: string, scope: ParentNode = document.body): HTMLElement {
  const all = [...scope.querySelectorAll<HTMLElement>('*')].filter((e) => e.textContent?.trim() === text && ![...e.children].some((c) => c.textContent?.trim() === text));
  if (all.length === 0) throw new Error(`no element with text ${text}`);
  return all[0]!;
}

export function button(name: string, scope: ParentNode = document.body): HTMLButtonElement {
  const b = [...scope.querySelectorAll('button')].find((x) => x.textContent?.trim() === name || x.getAttribute('aria-label') === name);
  if (!b) throw new Error(`no button ${name}`);
  return b;
}
