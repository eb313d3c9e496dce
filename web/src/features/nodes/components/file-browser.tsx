import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { ChevronRight, FileArchive, Folder, FolderOpen, FolderPlus, MoreHorizontal, Search, Upload } from 'lucide-react';
import { NODE_MSG, SEARCH_LIMITS, SEARCH_MSG, type NodeTreeDto } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { ContextMenu, ContextMenuContent, ContextMenuTrigger } from '@/components/ui/context-menu';
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { SortableTableHead, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tooltip } from '@/components/ui/tooltip';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/class-names';
import { formatBytes } from '@/lib/format-bytes';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { startZipDownload, zipDownloadUrl } from '../api/download-zip';
import { getDownloadUrl } from '../api/get-download-url';
import { shortenBreadcrumbs, type Crumb } from '../lib/breadcrumbs';
import { fileKind } from '@/lib/file-kind';
import { ancestorsOf, childrenOf, findNode } from '../lib/tree';
import { FolderPicker } from './folder-tree';
import { MatterSearchResults, SEARCH_DEBOUNCE_MS } from './matter-search-results';
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
  /** A file to show selected and focused (one chosen in the top bar's search), or null. */
  selectedFileId?: string | null;
  /** Whose panel widths these are: each person who signs in on this browser keeps their own. */
  layoutOwner?: string | number;
  /** Opens a file's preview (the rows' Open preview item); none is offered without it. */
  onPreview?: (node: NodeTreeDto) => void;
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

/** Downloads a file through a short-lived link; a failure is shown as a toast. */
async function downloadFile(n: NodeTreeDto) {
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
}

/** The current folder, or at the root the whole matter, as one ZIP with a manifest of sha256 checksums. */
function ZipButton({ matterId, folderId }: { matterId: string; folderId: string | null }) {
  return (
    <Tooltip content={folderId ? NODE_MSG.zipFolderHint : NODE_MSG.zipMatterHint}>
      <Button
        variant="outline"
        size="sm"
        aria-label={folderId ? 'Download folder as ZIP' : 'Download matter as ZIP'}
        onClick={() => {
          startZipDownload(zipDownloadUrl({ matterId, folderId }));
          toast.success(NODE_MSG.zipStarted);
        }}
      >
        <FileArchive aria-hidden="true" />
        ZIP
      </Button>
    </Tooltip>
  );
}

/** The path to the current folder, shortened with an ellipsis when long; the full path on hover. */
function Breadcrumbs({ crumbs, onFolderChange }: { crumbs: Crumb[]; onFolderChange: (id: string | null) => void }) {
  const short = shortenBreadcrumbs(crumbs);
  return (
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
  );
}

type ContentsTableProps = {
  entries: NodeTreeDto[];
  folderName: string;
  actionsFor: (n: NodeTreeDto) => ReturnType<typeof nodeActions>;
  onOpen: (n: NodeTreeDto) => void;
  onRowKey: (e: KeyboardEvent, n: NodeTreeDto) => void;
  selectedId?: string | null;
};

/** Focuses the selected row once, when it appears, and scrolls it into view. */
const focusSelected = (row: HTMLTableRowElement | null) => {
  row?.focus();
  row?.scrollIntoView?.({ block: 'nearest' });
};

type SortField = 'name' | 'type' | 'size' | 'modified' | 'uploader';
type ContentsSort = { field: SortField; direction: 'asc' | 'desc' };

const typeLabel = (n: NodeTreeDto) => (n.nodeType === 'folder' ? 'Folder' : fileKind(n.name).label);
const SORT_VALUE: Record<SortField, (n: NodeTreeDto) => string | number> = {
  name: (n) => n.name,
  type: typeLabel,
  size: (n) => n.fileSize ?? -1,
  modified: (n) => Date.parse(n.updatedAt) || 0,
  uploader: (n) => n.createdByName ?? '',
};

/** Folders stay above files; within each, the chosen column in the chosen direction, then by name. */
function sortEntries(entries: NodeTreeDto[], sort: ContentsSort): NodeTreeDto[] {
  const value = SORT_VALUE[sort.field];
  const sign = sort.direction === 'asc' ? 1 : -1;
  const byName = (a: NodeTreeDto, b: NodeTreeDto) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });
  return [...entries].sort((a, b) => {
    if (a.nodeType !== b.nodeType) return a.nodeType === 'folder' ? -1 : 1;
    const va = value(a);
    const vb = value(b);
    const c =
      typeof va === 'number' && typeof vb === 'number'
        ? va - vb
        : String(va).localeCompare(String(vb), undefined, { sensitivity: 'base', numeric: true });
    return c !== 0 ? sign * c : byName(a, b);
  });
}

const COLUMNS: { field: SortField; label: string; className?: string }[] = [
  { field: 'name', label: 'Name' },
  { field: 'type', label: 'Type' },
  { field: 'size', label: 'Size', className: 'text-right' },
  { field: 'modified', label: 'Modified' },
  { field: 'uploader', label: 'Added by' },
];

/** The current folder's items: a row each, with its actions in a dropdown and on right-click; every column sorts. */
function ContentsTable({ entries, folderName, actionsFor, onOpen, onRowKey, selectedId }: ContentsTableProps) {
  const [sort, setSort] = useState<ContentsSort>({ field: 'name', direction: 'asc' });
  const toSort = (field: SortField) =>
    setSort((s) => (s.field === field ? { field, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { field, direction: 'asc' }));
  return (
    <Table aria-label={`Contents of ${folderName}`} containerClassName="rounded-none border-0">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((c) => (
            <SortableTableHead
              key={c.field}
              label={c.label}
              className={c.className}
              active={sort.field === c.field}
              direction={sort.direction}
              onSort={() => toSort(c.field)}
            />
          ))}
          <TableHead className="w-16 text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {sortEntries(entries, sort).map((n) => {
          const isFolder = n.nodeType === 'folder';
          const kind = isFolder ? { icon: Folder, label: 'Folder', tone: 'text-warning' } : fileKind(n.name);
          const Icon = kind.icon;
          const actions = actionsFor(n);
          return (
            <ContextMenu key={n.id}>
              <ContextMenuTrigger asChild>
                <TableRow
                  ref={n.id === selectedId ? focusSelected : undefined}
                  tabIndex={0}
                  aria-label={isFolder ? `Folder ${n.name}` : `File ${n.name}`}
                  aria-current={n.id === selectedId ? 'true' : undefined}
                  onDoubleClick={() => onOpen(n)}
                  onKeyDown={(e) => onRowKey(e, n)}
                  className={cn(
                    'focus-visible:bg-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring data-[state=open]:bg-muted/60',
                    isFolder && 'cursor-pointer',
                    n.id === selectedId && 'bg-primary-soft',
                  )}
                >
                  <TableCell>
                    <span className="flex min-w-0 items-center gap-2.5">
                      <Icon aria-hidden="true" className={cn('size-4 shrink-0', kind.tone)} />
                      <span className="truncate font-medium">{n.name}</span>
                    </span>
                  </TableCell>
                  <TableCell className="text-muted-foreground">{kind.label}</TableCell>
                  <TableCell className="text-right whitespace-nowrap tabular-nums">{isFolder ? '—' : formatBytes(n.fileSize)}</TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">{formatModified(n.updatedAt)}</TableCell>
                  <TableCell className="max-w-40 truncate text-muted-foreground">{isFolder ? '—' : (n.createdByName ?? '—')}</TableCell>
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
  );
}

/** The Matter detail dialog's browser: folders on the left, the selected folder's contents on the right. */
/** The panels' widths, saved 100 ms after a change, per person on this browser. */
function usePanelLayout(owner: string | number | undefined) {
  const id = owner === undefined ? PANEL_LAYOUT_ID : `${PANEL_LAYOUT_ID}.${owner}`;
  return useDefaultLayout({ id, storage: localStorage, debounceSaveMs: 100 });
}

export function FileBrowser(props: FileBrowserProps) {
  const { matterId, nodes, folderId, onFolderChange, permissions, readOnlyReason, onUpload, selectedFileId, layoutOwner, onPreview } =
    props;
  const [query, setQuery] = useState('');
  const [action, setAction] = useState<Action>(null);
  const [createOpen, setCreateOpen] = useState(false);
  const layout = usePanelLayout(layoutOwner);

  const current = findNode(nodes, folderId);
  const currentId = current?.nodeType === 'folder' ? current.id : null;
  const entries = childrenOf(nodes, currentId);
  // From two characters the box searches the whole matter on the server, in place of the folder's listing.
  const searchText = query.trim();
  const searching = searchText.length >= SEARCH_LIMITS.queryMin;
  // Debounced here, where the box lives from the start, so the first characters wait like the rest.
  const settled = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  const crumbs: Crumb[] = [{ id: null, name: 'Root' }, ...ancestorsOf(nodes, currentId).map((n) => ({ id: n.id, name: n.name }))];

  const createReason = readOnlyReason ?? (permissions.canUpload ? null : 'You do not have permission to create folders.');
  const uploadReason = readOnlyReason ?? (permissions.canUpload ? null : 'You do not have permission to upload files.');

  const open = (n: NodeTreeDto) => {
    if (n.nodeType === 'folder') {
      setQuery('');
      onFolderChange(n.id);
    }
  };
  const actionsFor = (n: NodeTreeDto) =>
    nodeActions(n, {
      permissions,
      readOnlyReason,
      onOpen: open,
      onDownload: (f) => void downloadFile(f),
      onPreview,
      onChange: (kind, node) => setAction({ kind, node }),
    });
  const onRowKey = (e: KeyboardEvent, n: NodeTreeDto) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (n.nodeType === 'folder') open(n);
      else if (permissions.canRetrieve) void downloadFile(n);
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
                setQuery('');
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
              <Breadcrumbs crumbs={crumbs} onFolderChange={onFolderChange} />
            </nav>
            <div className="relative w-full sm:w-56">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
              />
              <Input
                type="search"
                aria-label={SEARCH_MSG.inMatterLabel}
                placeholder={SEARCH_MSG.inMatterPlaceholder}
                className="h-9 pl-8"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
            </div>
            {permissions.canRetrieve ? <ZipButton matterId={matterId} folderId={currentId} /> : null}
            <WithReason reason={uploadReason}>
              <Button size="sm" disabled={uploadReason !== null} onClick={onUpload}>
                <Upload aria-hidden="true" />
                Upload
              </Button>
            </WithReason>
          </div>
          <div className="flex-1 overflow-auto">
            {searching ? (
              <MatterSearchResults matterId={matterId} text={searchText} settled={settled} onChosen={() => setQuery('')} />
            ) : entries.length === 0 ? (
              <EmptyState
                icon={FolderOpen}
                title="This folder is empty"
                description="Upload files or create folders to get started"
                titleAs="p"
              />
            ) : (
              <ContentsTable
                entries={entries}
                folderName={crumbs[crumbs.length - 1]!.name}
                actionsFor={actionsFor}
                onOpen={open}
                onRowKey={onRowKey}
                selectedId={selectedFileId}
              />
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
