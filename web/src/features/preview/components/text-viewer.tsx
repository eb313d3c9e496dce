import { PREVIEW_MSG } from '@strongroom/contracts';
import { TEXT_PREVIEW_BYTES } from '../lib/limits';
import { PreviewLoading } from './preview-loading';
import { useAsyncValue } from './use-async-value';
import type { ViewerProps } from './viewer-props';

/** Reads the first megabyte as UTF-8 (a character cut at the end shows as a replacement mark). */
const readStart = (blob: Blob) => blob.slice(0, TEXT_PREVIEW_BYTES).text();

/** Plain text: its first megabyte, monospace and wrapped, with a note when the file is longer. */
export default function TextViewer({ preview, onError }: ViewerProps) {
  const text = useAsyncValue(preview.blob, readStart, onError);
  if (text === undefined) return <PreviewLoading />;
  return (
    <div className="grid gap-2">
      {preview.blob.size > TEXT_PREVIEW_BYTES ? <p className="text-sm text-muted-foreground">{PREVIEW_MSG.textCut}</p> : null}
      <pre
        tabIndex={0}
        aria-label={`Text of ${preview.fileName}`}
        className="max-h-[70vh] overflow-auto rounded-md border border-border bg-muted/30 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap"
      >
        {text}
      </pre>
    </div>
  );
}
