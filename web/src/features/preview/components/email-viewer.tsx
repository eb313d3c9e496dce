import PostalMime, { type Address, type Email } from 'postal-mime';
import { Paperclip } from 'lucide-react';
import { formatBytes } from '@/lib/format-bytes';
import { DOCUMENT_HTML_CLASSES } from '../lib/document-html';
import { sanitizeHtml } from '../lib/sanitize-html';
import { PreviewLoading } from './preview-loading';
import { useAsyncValue } from './use-async-value';
import type { ViewerProps } from './viewer-props';

type Parsed = { email: Email; html: string | null };

async function parse(blob: Blob): Promise<Parsed> {
  const email = await PostalMime.parse(await blob.arrayBuffer());
  return { email, html: email.html ? sanitizeHtml(email.html) : null };
}

/** 'Name <address>' for each mailbox; a group as its name and members. */
function addresses(list: Address[] | Address | undefined): string {
  const one = (a: Address): string =>
    a.group ? `${a.name}: ${a.group.map(one).join(', ')}` : a.name ? `${a.name} <${a.address}>` : (a.address ?? '');
  if (!list) return '';
  return (Array.isArray(list) ? list : [list]).map(one).join(', ');
}

function formatDate(value: string | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

const sizeOf = (content: ArrayBuffer | Uint8Array | string) =>
  typeof content === 'string' ? new TextEncoder().encode(content).length : content.byteLength;

/** An .eml file: From, To, Cc, Date and Subject, the body (HTML sanitised, else the text), the attachments listed. */
export default function EmailViewer({ preview, onError }: ViewerProps) {
  const parsed = useAsyncValue(preview.blob, parse, onError);
  if (!parsed) return <PreviewLoading />;
  const { email, html } = parsed;
  const headers: Array<[string, string]> = [
    ['From', addresses(email.from)],
    ['To', addresses(email.to)],
    ['Cc', addresses(email.cc)],
    ['Date', formatDate(email.date)],
    ['Subject', email.subject ?? ''],
  ];
  return (
    <article aria-label={`Email ${email.subject ?? preview.fileName}`} className="grid gap-3">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 rounded-md border border-border bg-muted/30 p-3 text-sm">
        {headers
          .filter(([, v]) => v !== '')
          .map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-medium text-muted-foreground">{k}</dt>
              <dd className="break-words">{v}</dd>
            </div>
          ))}
      </dl>
      {html !== null ? (
        <div
          className={`${DOCUMENT_HTML_CLASSES} max-h-[60vh] overflow-auto rounded-md border border-border p-3 text-sm break-words`}
          // Sanitised by DOMPurify: no scripts, handlers, forms, styles or remote images.
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : (
        <pre className="max-h-[60vh] overflow-auto rounded-md border border-border p-3 font-sans text-sm break-words whitespace-pre-wrap">
          {email.text ?? ''}
        </pre>
      )}
      {email.attachments.length > 0 ? (
        <section aria-label="Attachments" className="grid gap-1">
          <h3 className="text-sm font-semibold">Attachments</h3>
          <ul className="grid gap-1 text-sm">
            {email.attachments.map((a, i) => (
              <li key={i} className="flex items-center gap-2">
                <Paperclip aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
                <span className="truncate">{a.filename ?? 'Unnamed attachment'}</span>
                <span className="shrink-0 text-muted-foreground tabular-nums">{formatBytes(sizeOf(a.content))}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
