import { useLayoutEffect, useRef, type ComponentProps, type RefObject } from 'react';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { cn } from '@/lib/class-names';

export const Dialog = DialogPrimitive.Root;
const DialogPortal = DialogPrimitive.Portal;

export function DialogOverlay({ className, ...props }: ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      className={cn('fixed inset-0 z-50 bg-overlay backdrop-blur-[2px] data-[state=open]:animate-fade-in', className)}
      {...props}
    />
  );
}

type DialogContentProps = ComponentProps<typeof DialogPrimitive.Content> & {
  /** Hides the corner close button (e.g. while a step must not be interrupted). */
  hideClose?: boolean;
  closeLabel?: string;
};

/** Whether an event came from a toast: using a toast (its Undo, its close button) does not close a dialog. */
function fromToast(event: Event): boolean {
  const target = event.target as Element | null;
  return typeof target?.closest === 'function' && target.closest('[data-sonner-toaster]') !== null;
}

/**
 * Notes what had the focus when the dialog opened (the row or button that opened it). It runs as the content
 * mounts, before the dialog moves the focus inside.
 */
function OpenerMemory({ openerRef }: { openerRef: RefObject<HTMLElement | null> }) {
  useLayoutEffect(() => {
    const el = document.activeElement;
    openerRef.current = el instanceof HTMLElement && el !== document.body ? el : null;
  }, [openerRef]);
  return null;
}

export function DialogContent({
  className,
  children,
  hideClose,
  closeLabel = 'Close',
  onInteractOutside,
  onCloseAutoFocus,
  ...props
}: DialogContentProps) {
  const openerRef = useRef<HTMLElement | null>(null);
  return (
    <DialogPortal>
      <DialogOverlay />
      <DialogPrimitive.Content
        onInteractOutside={(event) => {
          if (fromToast(event)) event.preventDefault();
          onInteractOutside?.(event);
        }}
        // Closing gives the focus back to what opened the dialog (a dialog opened from a row or a button without
        // a trigger of its own would otherwise leave it on the page's body), when that is still on the page.
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const el = openerRef.current;
          if (event.defaultPrevented || !el?.isConnected) return;
          event.preventDefault();
          el.focus({ preventScroll: true });
        }}
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto',
          'rounded-xl border border-border bg-popover p-6 text-popover-foreground shadow-2xl data-[state=open]:animate-scale-in',
          'focus-visible:outline-none',
          className,
        )}
        {...props}
      >
        <OpenerMemory openerRef={openerRef} />
        {children}
        {hideClose ? null : (
          <DialogPrimitive.Close
            className="absolute top-4 right-4 rounded-md p-1 text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
            aria-label={closeLabel}
          >
            <X aria-hidden="true" className="size-4" />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPortal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 pr-8', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  // Marked so that lists inside the dialog (autocompletes) never open over its buttons.
  return <div data-dialog-footer="" className={cn('flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end', className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-lg font-semibold leading-tight', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
