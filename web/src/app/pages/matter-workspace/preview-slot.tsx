import { useState } from 'react';
import { Check, Copy, Download, X } from 'lucide-react';
import type { NodeTreeDto } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { fileKind } from '@/lib/file-kind';
import { formatBytes } from '@/lib/format-bytes';
import { toast } from '@/lib/toast';
import { downloadFile } from '@/features/nodes/lib/download-file';

export type PreviewSlotProps = {
  node: NodeTreeDto;
  matter: { id: string; matterName: string };
  /** Where the file lies in the matter: 'Root / Pleadings / Defence.pdf'. */
  path: string;
  /** Whether this person may download the file (a guest by the grant for this matter). */
  canDownload: boolean;
  onClose: () => void;
};

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

/** The checksum in full (it is how a firm proves the file is unchanged), with a button that copies it. */
function Sha256({ hash }: { hash: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(hash);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error('Could not copy the checksum.');
    }
  };
  return (
    <div className="flex items-start gap-2">
      <code className="min-w-0 flex-1 font-mono text-xs break-all">{hash}</code>
      <Button variant="ghost" size="icon-sm" aria-label={copied ? 'Checksum copied' : 'Copy sha256'} onClick={() => void copy()}>
        {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      </Button>
    </div>
  );
}

/**
 * The selected file's facts beside the folder's contents (name, type, size, who added it and when, its sha256 and
 * path) and a Download for whoever may retrieve it. A place-holder for the document preview itself, with the same
 * props.
 */
export function PreviewSlot({ node, matter, path, canDownload, onClose }: PreviewSlotProps) {
  const kind = fileKind(node.name);
  const Icon = kind.icon;
  const added = new Date(node.createdAt);
  return (
    <section aria-label={`Preview of ${node.name}`} className="flex h-full min-w-0 flex-col gap-4">
      <div className="flex items-start gap-2">
        <Icon aria-hidden="true" className={`mt-1 size-5 shrink-0 ${kind.tone}`} />
        <h2 className="min-w-0 flex-1 text-base font-semibold break-words">{node.name}</h2>
        <Button variant="ghost" size="icon-sm" aria-label="Close preview" onClick={onClose}>
          <X aria-hidden="true" />
        </Button>
      </div>
      <dl className="grid gap-3">
        <Fact label="Matter">{matter.matterName}</Fact>
        <Fact label="Type">{kind.label}</Fact>
        <Fact label="Size">{formatBytes(node.fileSize)}</Fact>
        <Fact label="Added by">{node.createdByName ?? '—'}</Fact>
        <Fact label="Added">
          {Number.isNaN(added.getTime()) ? '—' : added.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
        </Fact>
        <Fact label="sha256">{node.sha256Hash ? <Sha256 hash={node.sha256Hash} /> : '—'}</Fact>
        <Fact label="Path">{path}</Fact>
      </dl>
      {canDownload ? (
        <Button className="self-start" onClick={() => void downloadFile(node)}>
          <Download aria-hidden="true" />
          Download
        </Button>
      ) : null}
    </section>
  );
}
