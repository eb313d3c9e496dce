import mammoth from 'mammoth';
import { DOCUMENT_HTML_CLASSES } from '../lib/document-html';
import { sanitizeHtml } from '../lib/sanitize-html';
import { PreviewLoading } from './preview-loading';
import { useAsyncValue } from './use-async-value';
import type { ViewerProps } from './viewer-props';

/** mammoth turns the .docx into plain semantic HTML (headings, paragraphs, lists, tables, embedded images). */
async function convert(blob: Blob): Promise<string> {
  const { value } = await mammoth.convertToHtml({ arrayBuffer: await blob.arrayBuffer() });
  return sanitizeHtml(value);
}

/** A Word .docx file as HTML, sanitised. */
export default function WordViewer({ preview, onError }: ViewerProps) {
  const html = useAsyncValue(preview.blob, convert, onError);
  if (html === undefined) return <PreviewLoading />;
  return (
    <div
      aria-label={`Document ${preview.fileName}`}
      role="document"
      className={`${DOCUMENT_HTML_CLASSES} max-h-[70vh] overflow-auto rounded-md border border-border bg-background p-4 text-sm break-words`}
      // Sanitised by DOMPurify: no scripts, handlers, forms, styles or remote images.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
