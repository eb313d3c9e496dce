import { useState } from 'react';
import { Folder } from 'lucide-react';
import type { NodeTreeDto } from '@strongroom/contracts';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatBytes } from '@/lib/format-bytes';
import { FolderPicker } from '@/features/nodes/components/folder-tree';
import { fileKind } from '@/lib/file-kind';
import { childrenOf, findNode } from '@/features/nodes/lib/tree';

function formatModified(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The vault sheet's Files & Folders tab: the folder tree (Root first) and the subfolders and files of the chosen
 * folder, read-only. Root is shown until a folder is chosen.
 */
export function VaultFiles({ nodes }: { nodes: NodeTreeDto[] }) {
  const [folderId, setFolderId] = useState<string | null>(null);
  const folder = findNode(nodes, folderId);
  const entries = childrenOf(nodes, folder?.nodeType === 'folder' ? folder.id : null);
  const label = folder?.name ?? 'Root';
  return (
    <div className="grid gap-4 sm:grid-cols-[minmax(9rem,12rem)_minmax(0,1fr)]">
      <div className="rounded-lg border border-border p-2">
        <FolderPicker nodes={nodes} selectedId={folderId} onSelect={setFolderId} label="Vaulted folders" />
      </div>
      {entries.length === 0 ? (
        <EmptyState title="This folder is empty" titleAs="h3" className="rounded-lg border border-border py-8" />
      ) : (
        <Table aria-label={`Contents of ${label}`}>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Name</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Size</TableHead>
              <TableHead>Modified</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.map((n) => {
              const isFolder = n.nodeType === 'folder';
              const kind = isFolder ? { icon: Folder, label: 'Folder', tone: 'text-warning' } : fileKind(n.name);
              const Icon = kind.icon;
              return (
                <TableRow key={n.id}>
                  <TableCell>
                    {isFolder ? (
                      <button
                        type="button"
                        onClick={() => setFolderId(n.id)}
                        className="inline-flex items-center gap-2 rounded text-left font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                      >
                        <Icon aria-hidden="true" className="size-4 shrink-0 text-warning" />
                        {n.name}
                      </button>
                    ) : (
                      <span className="inline-flex items-center gap-2">
                        <Icon aria-hidden="true" className={`size-4 shrink-0 ${kind.tone}`} />
                        {n.name}
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="text-muted-foreground">{kind.label}</TableCell>
                  <TableCell className="whitespace-nowrap tabular-nums">{isFolder ? '—' : formatBytes(n.fileSize)}</TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">{formatModified(n.updatedAt)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
