import { useState, type ReactNode } from 'react';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { ChevronDown, ChevronRight, FileArchive, FolderOpen, FolderPlus, FolderTree, Search, Upload } from 'lucide-react';
import { NODE_MSG, SEARCH_LIMITS, SEARCH_MSG, type NodeTreeDto } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/class-names';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useMediaQuery } from '@/lib/use-media-query';
import { startZipDownload, zipDownloadUrl } from '../api/download-zip';
import { shortenBreadcrumbs, type Crumb } from '../lib/breadcrumbs';
import { downloadFile } from '@/lib/download-file';
import { ancestorsOf, childrenOf, findNode } from '../lib/tree';
import { ContentsTable } from './contents-table';
import { FolderPicker } from './folder-tree';
import { MatterSearchResults, SEARCH_DEBOUNCE_MS } from './matter-search-results';
import { nodeActions, NodeActionItems, type NodePermissions } from './node-actions';
import { ActionDialog, type Action } from './node-action-dialog';
import { CreateFolderDialog } from './node-dialogs';
import { RecycleBinButton } from './recycle-bin-dialog';

type FileBrowserProps = {
  matterId: string;
  nodes: NodeTreeDto[];
  /** The open folder's files are on their way (the folders are known): its contents show as loading. */
  filesLoading?: boolean;
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
  /** Opens a file's preview (double-click, Enter or Space on its row); without it, those download the file. */
  onOpenFile?: (file: NodeTreeDto) => void;
};

const PANEL_LAYOUT_ID = 'strongroom.matter-detail.panels';
/** From this width the tree and the contents sit side by side in resizable panels; narrower, they stack. */
const WIDE_QUERY = '(min-width: 768px)';

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

/** The panels' widths, saved 100 ms after a change, per person on this browser. */
function usePanelLayout(owner: string | number | undefined) {
  const id = owner === undefined ? PANEL_LAYOUT_ID : `${PANEL_LAYOUT_ID}.${owner}`;
  return useDefaultLayout({ id, storage: localStorage, debounceSaveMs: 100 });
}

/** The folder tree's own heading: its name (or, on a phone, the button that shows and hides it) and New folder. */
function FoldersHeading({ createReason, onCreate, toggle }: { createReason: string | null; onCreate: () => void; toggle?: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-2 border-b border-border px-3 py-2">
      {toggle ?? <h2 className="text-sm font-semibold">Folders</h2>}
      <WithReason reason={createReason}>
        <Button variant="ghost" size="icon-sm" aria-label="Create folder" disabled={createReason !== null} onClick={onCreate}>
          <FolderPlus aria-hidden="true" />
        </Button>
      </WithReason>
    </div>
  );
}

type StackedBrowserProps = {
  heading: (toggle: ReactNode) => ReactNode;
  tree: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
};

/** On a phone: the folder tree folded under a 'Folders' button, over the folder's contents. */
function StackedBrowser({ heading, tree, open, onOpenChange, children }: StackedBrowserProps) {
  const toggle = (
    <Button variant="outline" size="sm" aria-expanded={open} aria-controls="workspace-folders" onClick={() => onOpenChange(!open)}>
      <FolderTree aria-hidden="true" />
      Folders
      <ChevronDown aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
    </Button>
  );
  return (
    <div className="flex min-w-0 flex-col rounded-lg border border-border">
      <div className="bg-muted/30">
        {heading(toggle)}
        <div id="workspace-folders" hidden={!open} className="max-h-[50dvh] overflow-auto border-b border-border p-2">
          {open ? tree : null}
        </div>
      </div>
      <div className="flex h-[70dvh] min-h-80 min-w-0 flex-col">{children}</div>
    </div>
  );
}

/**
 * A matter's browser: folders on the left, the selected folder's contents on the right. On a phone the two stack,
 * the tree folded away under a 'Folders' button so the contents get the screen.
 */
/**
 * The box that searches in this matter: from two characters it searches the whole matter on the server, in place
 * of the folder's listing, debounced here, where the box lives from the start, so the first characters wait too.
 */
function useSearchBox() {
  const [query, setQuery] = useState('');
  const searchText = query.trim();
  const searching = searchText.length >= SEARCH_LIMITS.queryMin;
  const settled = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  return { query, setQuery, searchText, searching, settled };
}

/** Why folders cannot be created or files uploaded here (null where they can): the matter's state, then permission. */
function addReasons(permissions: NodePermissions, readOnlyReason: string | null) {
  const missing = (text: string) => readOnlyReason ?? (permissions.canUpload ? null : text);
  return {
    createReason: missing('You do not have permission to create folders.'),
    uploadReason: missing('You do not have permission to upload files.'),
  };
}

/** Rows standing in for a folder's contents while its files load. */
function ContentsLoading() {
  return (
    <div className="grid gap-2 p-4" aria-busy="true" aria-label="Loading the folder's contents">
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}

export function FileBrowser(props: FileBrowserProps) {
  const { matterId, nodes, folderId, onFolderChange, permissions, readOnlyReason, onUpload, selectedFileId, layoutOwner, onOpenFile } =
    props;
  const { query, setQuery, searchText, searching, settled } = useSearchBox();
  const [action, setAction] = useState<Action>(null);
  const [createOpen, setCreateOpen] = useState(false);
  const [treeOpen, setTreeOpen] = useState(false);
  const wide = useMediaQuery(WIDE_QUERY, true);
  const layout = usePanelLayout(layoutOwner);

  const current = findNode(nodes, folderId);
  const currentId = current?.nodeType === 'folder' ? current.id : null;
  const entries = childrenOf(nodes, currentId);
  const crumbs: Crumb[] = [{ id: null, name: 'Root' }, ...ancestorsOf(nodes, currentId).map((n) => ({ id: n.id, name: n.name }))];
  const { createReason, uploadReason } = addReasons(permissions, readOnlyReason);

  const open = (n: NodeTreeDto) => {
    if (n.nodeType === 'folder') {
      setQuery('');
      onFolderChange(n.id);
    }
  };
  // A file opens its preview where the page has one; without, it downloads for whoever may retrieve it.
  const activate = (n: NodeTreeDto) => {
    if (n.nodeType === 'folder') open(n);
    else if (onOpenFile) onOpenFile(n);
    else if (permissions.canRetrieve) void downloadFile(n);
  };
  const actionsFor = (n: NodeTreeDto) =>
    nodeActions(n, {
      permissions,
      readOnlyReason,
      onOpen: open,
      onDownload: (f) => void downloadFile(f),
      onPreview: onOpenFile,
      onChange: (kind, node) => setAction({ kind, node }),
    });

  const tree = (
    <FolderPicker
      nodes={nodes}
      selectedId={currentId}
      onSelect={(id) => {
        setQuery('');
        setTreeOpen(false);
        onFolderChange(id);
      }}
      label="Folders"
      menuFor={(folder) => <NodeActionItems actions={actionsFor(folder)} menu="context" />}
    />
  );
  const contents = (
    <>
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
        <RecycleBinButton matterId={matterId} canRestore={permissions.canDelete && readOnlyReason === null} />
        <WithReason reason={uploadReason}>
          <Button size="sm" disabled={uploadReason !== null} onClick={onUpload}>
            <Upload aria-hidden="true" />
            Upload
          </Button>
        </WithReason>
      </div>
      {searching ? (
        <div className="min-h-0 flex-1 overflow-auto">
          <MatterSearchResults matterId={matterId} text={searchText} settled={settled} onChosen={() => setQuery('')} />
        </div>
      ) : props.filesLoading ? (
        <ContentsLoading />
      ) : entries.length === 0 ? (
        <div className="min-h-0 flex-1 overflow-auto">
          <EmptyState
            icon={FolderOpen}
            title="This folder is empty"
            description="Upload files or create folders to get started"
            titleAs="p"
          />
        </div>
      ) : (
        <ContentsTable
          entries={entries}
          folderName={crumbs[crumbs.length - 1]!.name}
          actionsFor={actionsFor}
          onActivate={activate}
          selectedId={selectedFileId}
        />
      )}
    </>
  );

  return (
    <>
      {wide ? (
        <Group
          orientation="horizontal"
          defaultLayout={layout.defaultLayout}
          onLayoutChanged={layout.onLayoutChanged}
          className="min-h-[26rem] flex-1 rounded-lg border border-border"
        >
          <Panel id="folders" defaultSize="25%" minSize="15%" maxSize="40%" className="flex flex-col bg-muted/30">
            <FoldersHeading createReason={createReason} onCreate={() => setCreateOpen(true)} />
            <div className="flex-1 overflow-auto p-2">{tree}</div>
          </Panel>
          <Separator
            className="w-1.5 bg-border/60 transition-colors outline-none hover:bg-primary/40 focus-visible:bg-primary data-[separator=active]:bg-primary"
            aria-label="Resize folders panel"
          />
          <Panel id="contents" minSize="40%" className="flex min-w-0 flex-col">
            {contents}
          </Panel>
        </Group>
      ) : (
        <StackedBrowser
          heading={(toggle) => <FoldersHeading createReason={createReason} onCreate={() => setCreateOpen(true)} toggle={toggle} />}
          tree={tree}
          open={treeOpen}
          onOpenChange={setTreeOpen}
        >
          {contents}
        </StackedBrowser>
      )}
      <CreateFolderDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        matterId={matterId}
        parentId={currentId}
        parentName={crumbs[crumbs.length - 1]!.name}
      />
      <ActionDialog
        action={action}
        onClose={() => setAction(null)}
        nodes={nodes}
        permissions={permissions}
        readOnlyReason={readOnlyReason}
      />
    </>
  );
}
