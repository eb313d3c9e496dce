import { useCallback } from 'react';
import type { ViewerProps } from './viewer-props';

/** An image, from the bytes already fetched (a blob: URL, so the app's CSP needs no store origin for images). */
export default function ImageViewer({ preview, onError }: ViewerProps) {
  const { blob } = preview;
  // The blob: URL lives as long as the <img> shows this file.
  const attach = useCallback(
    (img: HTMLImageElement | null) => {
      if (!img) return;
      const url = URL.createObjectURL(blob);
      img.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
  return (
    <div className="flex justify-center rounded-md border border-border bg-muted/30 p-2">
      <img
        ref={attach}
        alt={preview.fileName}
        className="h-auto max-h-[70vh] max-w-full object-contain"
        onError={() => onError(new Error('The image could not be shown.'))}
      />
    </div>
  );
}
