import type { ComponentProps, KeyboardEvent } from 'react';
import * as Menu from '@radix-ui/react-context-menu';
import { cn } from '@/lib/class-names';

// The same look as dropdown-menu.tsx: a right-click (or keyboard) menu is the dropdown's twin.
const contentClass =
  'z-50 min-w-[12rem] overflow-hidden rounded-lg border border-border bg-popover p-1 text-popover-foreground shadow-lg data-[state=open]:animate-fade-in';
const itemClass = cn(
  'relative flex cursor-default items-center gap-2 rounded-md px-2.5 py-2 text-sm outline-none select-none transition-colors [&_svg]:size-4 [&_svg]:text-muted-foreground',
  'data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50',
);

/**
 * Not modal: a modal menu hides the rest of the page from assistive technology (aria-hidden) while the page's
 * links and buttons stay focusable. A click outside or Escape still closes it, and focus still returns to the row.
 */
export function ContextMenu(props: ComponentProps<typeof Menu.Root>) {
  return <Menu.Root modal={false} {...props} />;
}

/**
 * Radix focuses the first item only when no pointer moved since the last key press, and Chromium sends a
 * pointer move when the modal menu changes what lies under a resting mouse. Opened from the keyboard, the
 * first item is focused here once the menu is up (it leaves an item that already has focus alone).
 */
function focusFirstItem(framesLeft = 5) {
  requestAnimationFrame(() => {
    const menu = document.querySelector<HTMLElement>('[data-radix-menu-content][data-state="open"]');
    if (!menu) {
      if (framesLeft > 0) focusFirstItem(framesLeft - 1);
      return;
    }
    if (document.activeElement instanceof HTMLElement && document.activeElement !== menu && menu.contains(document.activeElement)) return;
    menu.querySelector<HTMLElement>('[role="menuitem"]:not([data-disabled])')?.focus({ preventScroll: true });
  });
}

/**
 * Opens on right-click and, from the keyboard, on the ContextMenu key or Shift+F10 while the trigger has focus.
 * Radix only listens for the `contextmenu` event; browsers differ in whether (and where) those keys fire it, so
 * the keys are handled here and the menu is placed at the trigger instead of at the mouse pointer.
 */
export function ContextMenuTrigger({ onKeyDown, ...props }: ComponentProps<typeof Menu.Trigger>) {
  return (
    <Menu.Trigger
      {...props}
      onKeyDown={(e: KeyboardEvent<HTMLSpanElement>) => {
        onKeyDown?.(e);
        if (e.defaultPrevented || e.target !== e.currentTarget) return;
        if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
          e.preventDefault();
          const r = e.currentTarget.getBoundingClientRect();
          e.currentTarget.dispatchEvent(
            new MouseEvent('contextmenu', {
              bubbles: true,
              cancelable: true,
              clientX: r.left + Math.min(24, r.width / 2),
              clientY: r.bottom,
            }),
          );
          focusFirstItem();
        }
      }}
    />
  );
}

export function ContextMenuContent({ className, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content className={cn(contentClass, className)} {...props} />
    </Menu.Portal>
  );
}

export function ContextMenuItem({ className, destructive, ...props }: ComponentProps<typeof Menu.Item> & { destructive?: boolean }) {
  return <Menu.Item className={cn(itemClass, destructive && 'text-danger [&_svg]:text-danger', className)} {...props} />;
}

export function ContextMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />;
}
