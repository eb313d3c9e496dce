import * as DialogPrimitive from '@radix-ui/react-dialog';
import { DialogOverlay } from '@/components/ui/dialog';
import { FilePreviewPanel, type FilePreviewPanelProps } from './file-preview-panel';

/**
 * The preview panel in a drawer from the right edge, over the page that opened it (focus kept inside, Escape and
 * the panel's Close button close it). A stand-in until the workspace page gives the panel a place of its own.
 */
export function FilePreviewSheet(props: FilePreviewPanelProps) {
  return (
    <DialogPrimitive.Root open onOpenChange={(open) => !open && props.onClose()}>
      <DialogPrimitive.Portal>
        <DialogOverlay />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-3xl flex-col border-l border-border bg-card shadow-2xl focus-visible:outline-none data-[state=open]:animate-slide-in-right"
        >
          {/* The drawer's name; the panel's own heading shows the file's name. */}
          <DialogPrimitive.Title asChild>
            <span className="sr-only">Preview of {props.node.name}</span>
          </DialogPrimitive.Title>
          <FilePreviewPanel {...props} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
