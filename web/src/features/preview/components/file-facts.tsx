import { Copy } from 'lucide-react';
import type { NodeTreeDto } from '@strongroom/contracts';
import { FILE_TEXT_STATE_LABELS, PREVIEW_MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { formatBytes } from '@/lib/format-bytes';
import { toast } from '@/lib/toast';

export type PreviewNode = Pick<
  NodeTreeDto,
  'id' | 'matterId' | 'name' | 'mimeType' | 'fileSize' | 'sha256Hash' | 'createdAt' | 'createdByName' | 'textState' | 'textReason'
>;

function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

async function copyHash(hash: string) {
  try {
    await navigator.clipboard.writeText(hash);
    toast.success(PREVIEW_MSG.hashCopied);
  } catch {
    toast.error(PREVIEW_MSG.copyFailed);
  }
}

/**
 * What the archive knows of the file: who added it and when, its size, its sha256 in full, whether its words can
 * be searched yet (and why not), where it is.
 */
export function FileFacts({ node, matterName, path }: { node: PreviewNode; matterName: string; path: string }) {
  const hash = node.sha256Hash;
  return (
    <section aria-label="File details" className="grid gap-2">
      <h3 className="text-sm font-semibold">Details</h3>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-muted-foreground">Added by</dt>
        <dd>{node.createdByName ?? '—'}</dd>
        <dt className="text-muted-foreground">Added on</dt>
        <dd>{formatTime(node.createdAt)}</dd>
        <dt className="text-muted-foreground">Size</dt>
        <dd className="tabular-nums">{formatBytes(node.fileSize)}</dd>
        <dt className="text-muted-foreground">SHA-256</dt>
        <dd className="flex items-start gap-1">
          <code className="min-w-0 font-mono text-xs break-all">{hash ?? '—'}</code>
          {hash ? (
            <Button variant="ghost" size="icon-sm" aria-label="Copy SHA-256" className="-mt-1.5" onClick={() => void copyHash(hash)}>
              <Copy aria-hidden="true" />
            </Button>
          ) : null}
        </dd>
        {node.textState ? (
          <>
            <dt className="text-muted-foreground">Search text</dt>
            <dd className="break-words">
              {FILE_TEXT_STATE_LABELS[node.textState]}
              {node.textReason ? <span className="text-muted-foreground">: {node.textReason}</span> : null}
            </dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Matter</dt>
        <dd className="break-words">{matterName}</dd>
        <dt className="text-muted-foreground">Path</dt>
        <dd className="break-words">{path}</dd>
      </dl>
    </section>
  );
}
