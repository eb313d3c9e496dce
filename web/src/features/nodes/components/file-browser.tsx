import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { ChevronRight, Folder, FolderOpen, FolderPlus, MoreHorizontal, Search, Upload } from 'lucide-react';
import { NODE_MSG, type NodeTreeDto } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { ContextMenu, ContextMenuContent, ContextMenuTrigger } from '@/components/ui/context-menu';
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tooltip } from '@/components/ui/tooltip';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/class-names';
import { formatBytes } from '@/lib/format-bytes';
import { toast } from '@/lib/toast';
import { getDownloadUrl } from '../api/get-download-url';
import { shortenBreadcrumbs, type Crumb } from '../lib/breadcrumbs';
import { fileKind } from '../lib/file-kind';
import { ancestorsOf, childrenOf, filterByName, findNode } from '../lib/tree';
import { FolderPicker } from './folder-tree';
import { nodeActions, NodeActionItems, type NodePermissions } from './node-actions';
import { CreateFolderDialog, DeleteNodeDialog, MoveNodeDialog, RenameNodeDialog } from './node-dialogs';

type FileBrowserProps = {
  matterId: string;
  nodes: NodeTreeDto[];
  folderId: string | null;
  onFolderChange: (id: string | null) => void;
  permissions: NodePermissions;
  /** Why changes are not allowed (legal hold, vaulted), or null. */
  readOnlyReason: string | null;
  /** Opens the upload dialog for the current folder. */
  onUpload: () => void;
};

type Action = { kind: 'rename' | 'move' | 'delete'; node: NodeTreeDto } | null;

const PANEL_LAYOUT_ID = 'strongroom.matter-detail.panels';

/** A disabled control with the reason on hover and focus. */
function WithReason({ reason, children }: { reason: string | null; children: ReactNode }) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip content={reason}>
      <span tabIndex={0} className="inline-flex rounded-md focus-visible:outline-2 focus-visible:outline-ring">
        {children}
      </span>
    </Tooltip>
  );
}

function formatModified(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The Matter detail dialog's browser: folders on the left, the selected folder's contents on the right. */
export function FileBrowser({ matterId, nodes, folderId, onFolderChange, permissions, readOnlyReason, onUpload }: FileBrowserProps) {
  const [filter, setFilter] = useState('');
  const [action, setAction] = useState<Action>(null);
  const [createOpen, setCreateOpen] = useState(false);
  const layout = useDefaultLayout({ id: PANEL_LAYOUT_ID, storage: localStorage, debounceSaveMs: 100 });

  const current = findNode(nodes, folderId);
  const currentId = current?.nodeType === 'folder' ? current.id : null;
  const entries = filterByName(childrenOf(nodes, currentId), filter);
  const crumbs: Crumb[] = [{ id: null, name: 'Root' }, ...ancestorsOf(nodes, currentId).map((n) => ({ id: n.id, name: n.name }))];
  const short = shortenBreadcrumbs(crumbs);

  const createReason = readOnlyReason ?? (permissions.canUpload ? null : 'You do not have permission to create folders.');
  const uploadReason = readOnlyReason ?? (permissions.canUpload ? null : 'You do not have permission to upload files.');

  const open = (n: NodeTreeDto) => {
    if (n.nodeType === 'folder') {
      setFilter('');
      onFolderChange(n.id);
    }
  };
  const download = async (n: NodeTreeDto) => {
    try {
      const { url } = await getDownloadUrl(n.id);
      const a = document.createElement('a');
      a.href = url;
      a.download = n.name;
      a.rel = 'noopener';
      document.body.append(a);
      a.click();
      a.remove();
    } catch (err) {
      toast.error(NODE_MSG.downloadFailed, { description: errorMessage(err) });
    }
  };
  const actionsFor = (n: NodeTreeDto) =>
    nodeActions(n, {
      permissions,
      readOnlyReason,
      onOpen: open,
      onDownload: (f) => void download(f),
      onChange: (kind, node) => setAction({ kind, node }),
    });
  const onRowKey = (e: KeyboardEvent, n: NodeTreeDto) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (n.nodeType === 'folder') open(n);
      else if (permissions.canRetrieve) void download(n);
    }
  };

  return (
    <>
      <Group
        orientation="horizontal"
        defaultLayout={layout.defaultLayout}
        onLayoutChanged={layout.onLayoutChanged}
        className="min-h-[26rem] flex-1 rounded-lg border border-border"
      >
        <Panel id="folders" defaultSize="25%" minSize="15%" maxSize="40%" className="flex flex-col bg-muted/30">
          <div className="flex items-center justify-between gap-2 border-b border-border px-3 py-2">
            <h3 className="text-sm font-semibold">Folders</h3>
            <WithReason reason={createReason}>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label="Create folder"
                disabled={createReason !== null}
                onClick={() => setCreateOpen(true)}
              >
                <FolderPlus aria-hidden="true" />
              </Button>
            </WithReason>
          </div>
          <div className="flex-1 overflow-auto p-2">
            <FolderPicker
              nodes={nodes}
              selectedId={currentId}
              onSelect={(id) => {
                setFilter('');
                onFolderChange(id);
              }}
              label="Folders"
              menuFor={(folder) => <NodeActionItems actions={actionsFor(folder)} menu="context" />}
            />
          </div>
        </Panel>
        <Separator
          className="w-1.5 bg-border/60 transition-colors outline-none hover:bg-primary/40 focus-visible:bg-primary data-[separator=active]:bg-primary"
          aria-label="Resize folders panel"
        />
        <Panel id="contents" minSize="40%" className="flex min-w-0 flex-col">
          <div className="flex flex-wrap items-center gap-3 border-b border-border px-4 py-2.5">
            <nav aria-label="Breadcrumb" className="min-w-0 flex-1">
              <Tooltip content={short.fullPath}>
                <ol className="flex min-w-0 items-center gap-1 text-sm" tabIndex={short.items.length < crumbs.length ? 0 : undefined}>
                  {short.items.map((c, i) => (
                    <li key={c === 'ellipsis' ? 'ellipsis' : (c.id ?? 'root')} className="flex min-w-0 items-center gap-1">
                      {i > 0 ? <ChevronRight aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" /> : null}
                      {c === 'ellipsis' ? (
                        <span className="text-muted-foreground" aria-label={`More: ${short.fullPath}`}>
                          …
                        </span>
                      ) : i === short.items.length - 1 ? (
                        <span aria-current="page" className="truncate font-medium">
                          {c.name}
                        </span>
                      ) : (
                        <button type="button" className="truncate text-link hover:underline" onClick={() => onFolderChange(c.id)}>
                          {c.name}
                        </button>
                      )}
                    </li>
                  ))}
                </ol>
              </Tooltip>
            </nav>
            <div className="relative w-full sm:w-56">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
              />
              <Input
                type="search"
                aria-label="Search in folder"
                placeholder="Search in folder..."
                className="h-9 pl-8"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
              />
            </div>
            <WithReason reason={uploadReason}>
              <Button size="sm" disabled={uploadReason !== null} onClick={onUpload}>
                <Upload aria-hidden="true" />
                Upload
              </Button>
            </WithReason>
          </div>
          <div className="flex-1 overflow-auto">
            {entries.length === 0 ? (
              filter ? (
                <EmptyState icon={Search} title="No items match your search" titleAs="p" />
              ) : (
                <EmptyState
                  icon={FolderOpen}
                  title="This folder is empty"
                  description="Upload files or create folders to get started"
                  titleAs="p"
                />
              )
            ) : (
              <Table aria-label={`Contents of ${crumbs[crumbs.length - 1]!.name}`} containerClassName="rounded-none border-0">
                <TableHeader>
                  <TableRow className="hover:bg-transparent">
                    <TableHead>Name</TableHead>
                    <TableHead>Type</TableHead>
                    <TableHead className="text-right">Size</TableHead>
                    <TableHead>Modified</TableHead>
                    <TableHead className="w-16 text-right">
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {entries.map((n) => {
                    const isFolder = n.nodeType === 'folder';
                    const kind = isFolder ? { icon: Folder, label: 'Folder' } : fileKind(n.name);
                    const Icon = kind.icon;
                    const actions = actionsFor(n);
                    return (
                      <ContextMenu key={n.id}>
                        <ContextMenuTrigger asChild>
                          <TableRow
                            tabIndex={0}
                            aria-label={isFolder ? `Folder ${n.name}` : `File ${n.name}`}
                            onDoubleClick={() => open(n)}
                            onKeyDown={(e) => onRowKey(e, n)}
                            className={cn(
                              'focus-visible:bg-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring data-[state=open]:bg-muted/60',
                              isFolder && 'cursor-pointer',
                            )}
                          >
                            <TableCell>
                              <span className="flex min-w-0 items-center gap-2.5">
                                <Icon
                                  aria-hidden="true"
                                  className={cn('size-4 shrink-0', isFolder ? 'text-warning' : 'text-muted-foreground')}
                                />
                                <span className="truncate font-medium">{n.name}</span>
                              </span>
                            </TableCell>
                            <TableCell className="text-muted-foreground">{kind.label}</TableCell>
                            <TableCell className="text-right whitespace-nowrap tabular-nums">
                              {isFolder ? '—' : formatBytes(n.fileSize)}
                            </TableCell>
                            <TableCell className="whitespace-nowrap text-muted-foreground">{formatModified(n.updatedAt)}</TableCell>
                            <TableCell className="text-right">
                              <DropdownMenu>
                                <DropdownMenuTrigger asChild>
                                  <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${n.name}`}>
                                    <MoreHorizontal aria-hidden="true" />
                                  </Button>
                                </DropdownMenuTrigger>
                                <DropdownMenuContent>
                                  <NodeActionItems actions={actions} menu="dropdown" />
                                </DropdownMenuContent>
                              </DropdownMenu>
                            </TableCell>
                          </TableRow>
                        </ContextMenuTrigger>
                        <ContextMenuContent aria-label={`Actions for ${n.name}`}>
                          <NodeActionItems actions={actions} menu="context" />
                        </ContextMenuContent>
                      </ContextMenu>
                    );
                  })}
                </TableBody>
              </Table>
            )}
          </div>
        </Panel>
      </Group>
      <CreateFolderDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        matterId={matterId}
        parentId={currentId}
        parentName={crumbs[crumbs.length - 1]!.name}
      />
      {action?.kind === 'rename' ? <RenameNodeDialog open onOpenChange={(o) => !o && setAction(null)} node={action.node} /> : null}
      {action?.kind === 'move' ? (
        <MoveNodeDialog open onOpenChange={(o) => !o && setAction(null)} node={action.node} nodes={nodes} />
      ) : null}
      {action?.kind === 'delete' ? <DeleteNodeDialog open onOpenChange={(o) => !o && setAction(null)} node={action.node} /> : null}
    </>
  );
}
