import { useState } from 'react';
import { Copy, Download, Eye, History } from 'lucide-react';
import { NODE_MSG, type NodeDto, type NodeVersionDto } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Tooltip, TooltipProvider } from '@/components/ui/tooltip';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { formatBytes } from '@/lib/format-bytes';
import { toast } from '@/lib/toast';
import { useNodeVersions, useRestoreVersion } from '../api/node-versions';
import { downloadFile } from '@/lib/download-file';

export type VersionsListProps = {
  /** The file whose versions are listed. */
  node: Pick<NodeDto, 'id' | 'name'>;
  /** The person may restore (canUpload, the matter not read-only). */
  canRestore: boolean;
  /** The person may download (canRetrieve, or a guest's download grant). */
  canDownload: boolean;
  /** Shows a version in a preview, when the host has one. */
  onPreview?: (version: NodeVersionDto) => void;
};

/** The first characters of a sha256, enough to tell versions apart at a glance. */
const SHORT_HASH = 12;

function formatWhen(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

async function copyHash(hash: string) {
  try {
    await navigator.clipboard.writeText(hash);
    toast.success('sha256 copied.');
  } catch {
    toast.error('Could not copy the sha256.');
  }
}

/** The sha256 shortened, whole on hover and focus, with a button that copies it whole. */
function Hash({ hash, label }: { hash: string | null; label: string }) {
  if (!hash) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="inline-flex items-center gap-1">
      <Tooltip content={<span className="font-mono break-all">{hash}</span>}>
        <code tabIndex={0} className="rounded font-mono text-xs focus-visible:outline-2 focus-visible:outline-ring" title={hash}>
          {hash.slice(0, SHORT_HASH)}…
        </code>
      </Tooltip>
      <Button variant="ghost" size="icon-sm" aria-label={`Copy sha256 of ${label}`} onClick={() => void copyHash(hash)}>
        <Copy aria-hidden="true" />
      </Button>
    </span>
  );
}

/**
 * A file's versions, newest first: number, size, who uploaded it and when, a short sha256 (whole on hover, and
 * copied whole), the current one marked; earlier ones can be downloaded, previewed (when the host can) and
 * restored, which makes them current again as a new version after a confirmation.
 */
export function VersionsList({ node, canRestore, canDownload, onPreview }: VersionsListProps) {
  const versions = useNodeVersions(node.id);
  const restore = useRestoreVersion();
  const [confirming, setConfirming] = useState<number | null>(null);

  const runRestore = (versionNumber: number) =>
    restore.mutate(
      { nodeId: node.id, versionNumber },
      {
        onSuccess: ({ node: file }) => {
          setConfirming(null);
          toast.success(NODE_MSG.versionRestored(file.name, versionNumber, file.currentVersion ?? versionNumber));
        },
        onError: (err) => {
          if (!isMfaCancelledError(err)) toast.error(NODE_MSG.restoreVersionFailed, { description: errorMessage(err) });
        },
      },
    );

  if (versions.isPending) return <Spinner label="Loading versions" />;
  if (versions.isError)
    return (
      <p role="alert" className="text-sm text-danger">
        {errorMessage(versions.error)}
      </p>
    );

  return (
    // Its own tooltip provider: the list is shown in a dialog here and in other hosts (a preview panel).
    <TooltipProvider>
      <ol aria-label={`Versions of ${node.name}`} className="grid gap-2">
        {versions.data.versions.map((v) => {
          const label = `version ${v.versionNumber}`;
          return (
            <li key={v.versionNumber} aria-label={`Version ${v.versionNumber}`} className="grid gap-2 rounded-md border border-border p-3">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="text-sm font-semibold">Version {v.versionNumber}</span>
                {v.isCurrent ? <Badge tone="success">Current</Badge> : null}
                {v.restoredFromVersion ? (
                  <span className="text-xs text-muted-foreground">restored from version {v.restoredFromVersion}</span>
                ) : null}
                <div className="ml-auto flex flex-wrap gap-1">
                  {onPreview && !v.isCurrent ? (
                    <Button variant="ghost" size="sm" aria-label={`Preview ${label}`} onClick={() => onPreview(v)}>
                      <Eye aria-hidden="true" />
                      Preview
                    </Button>
                  ) : null}
                  {canDownload ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Download ${label}`}
                      onClick={() => void downloadFile(node, v.versionNumber)}
                    >
                      <Download aria-hidden="true" />
                      Download
                    </Button>
                  ) : null}
                  {canRestore && !v.isCurrent ? (
                    <Button variant="outline" size="sm" aria-label={`Restore ${label}`} onClick={() => setConfirming(v.versionNumber)}>
                      <History aria-hidden="true" />
                      Restore
                    </Button>
                  ) : null}
                </div>
              </div>
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                <span className="tabular-nums">{formatBytes(v.fileSize)}</span>
                <span>{v.createdByName ?? 'Unknown'}</span>
                <time dateTime={v.createdAt}>{formatWhen(v.createdAt)}</time>
                <Hash hash={v.sha256Hash} label={label} />
              </p>
              {confirming === v.versionNumber ? (
                <div
                  role="alertdialog"
                  aria-label={`Restore ${label}?`}
                  className="flex flex-wrap items-center gap-2 rounded-md bg-muted p-2"
                >
                  <p className="flex-1 text-sm">
                    {`Restore version ${v.versionNumber}? It becomes the current version as a new version; no version is removed.`}
                  </p>
                  <Button variant="outline" size="sm" onClick={() => setConfirming(null)}>
                    Cancel
                  </Button>
                  <Button size="sm" disabled={restore.isPending} onClick={() => runRestore(v.versionNumber)}>
                    Restore
                  </Button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
    </TooltipProvider>
  );
}
