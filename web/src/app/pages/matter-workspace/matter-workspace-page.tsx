import { useEffect, useEffectEvent, useRef, useState, type CSSProperties } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import {
  MATTER_MSG,
  matterReadOnlyReason,
  READ_ONLY_TEXT,
  type MatterReadOnlyReason,
  type NodeTreeDto,
  type NodeVersionDto,
  type SessionUser,
} from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api-error';
import { useDocumentTitle } from '@/lib/document-title';
import { withParams } from '@/lib/search-params';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { useMatterDetail } from '@/features/matters/api/get-matter-detail';
import { LegalHoldDialog } from '@/features/legal-hold/components/legal-hold-dialog';
import { EditMatterDialog } from '@/features/matters/components/edit-matter-dialog';
import { FileBrowser } from '@/features/nodes/components/file-browser';
import { ancestorsOf, findNode } from '@/features/nodes/lib/tree';
import { UploadDialog } from '@/features/uploads/components/upload-dialog';
import { VaultMatterDialog } from '@/features/vault/components/vault-matter-dialog';
import { shows } from '@/lib/access-visibility';
import { FilePreviewPanel } from '@/features/preview/components/file-preview-panel';
import { VersionsList } from '@/features/nodes/components/versions-list';
import { WorkspaceHeader } from './workspace-header';
import { PreviewResizeHandle, usePreviewWidth } from './preview-width';
import { cn } from '@/lib/class-names';
import { backToListHref, type WorkspaceLocationState } from '@/lib/workspace-links';

/** The heading of the notice above the files of a read-only matter. */
const NOTICE_TITLE: Record<MatterReadOnlyReason, string> = {
  VAULTED: 'Vaulted',
  LEGAL_HOLD: 'Under legal hold',
  RETENTION_EXPIRED: 'Retention expired',
  READ_ONLY: 'Read-only',
};

/**
 * The folder (?folder=), a file found by search (?file=) and the file in the preview panel (?preview=) live in the
 * address, so a reload, a shared link or Back returns to them. Each change keeps the way back to the list's filters.
 */
function useWorkspaceParams() {
  const [sp, setSp] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as WorkspaceLocationState | null;
  const setFolder = (id: string | null, replace = false) =>
    // A file chosen in the top bar's search is selected only in the folder it was found in.
    setSp((prev) => withParams(prev, { folder: id, file: null }), { replace, state });
  // The page of a PDF (?page=, from a search hit) belongs to the preview it came with: a new preview or Close drops it.
  const openPreview = (id: string) =>
    setSp((prev) => withParams(prev, { preview: id, page: null }), { state: { ...state, previewPushed: true } });
  // A panel opened here was one step of history: closing it is that step back, so Back and Close agree.
  const closePreview = () => {
    if (state?.previewPushed) void navigate(-1);
    else setSp((prev) => withParams(prev, { preview: null, page: null }), { replace: true, state });
  };
  const page = Number(sp.get('page'));
  const previewPage = Number.isInteger(page) && page > 0 ? page : null;
  return {
    folderId: sp.get('folder'),
    fileId: sp.get('file'),
    previewId: sp.get('preview'),
    previewPage,
    setFolder,
    openPreview,
    closePreview,
  };
}

/** 'Root / Folder / file.pdf': from the tree, or from the file's own path when its folder is not the open one. */
function previewPath(nodes: NodeTreeDto[], file: NodeTreeDto): string {
  const trail = ancestorsOf(nodes, file.id).map((n) => n.name);
  return ['Root', ...(trail.length > 0 ? trail : file.path.split('/').filter(Boolean))].join(' / ');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The file in the preview panel. The tree holds the open folder's files only, so a file previewed from one folder
 * stays in the panel while its person browses others (until it is closed, or the id in the address changes).
 */
function usePreviewedFile(
  nodes: NodeTreeDto[],
  previewId: string | null,
  open: { folderId: string | null; loading: boolean },
): NodeTreeDto | null {
  const found = findNode(nodes, previewId);
  const [kept, setKept] = useState<NodeTreeDto | null>(null);
  if (found?.nodeType === 'file' && found !== kept) setKept(found);
  if (found?.nodeType === 'file') return found;
  if (!kept || kept.id !== previewId) return null;
  // Missing from its own folder's files once they are in: deleted or moved away, so the panel closes.
  return open.loading || kept.parentId !== open.folderId ? kept : null;
}

/** The folder of the matter an id names, or null (a file's id, another matter's, a deleted one). */
function folderOf(nodes: Parameters<typeof findNode>[0], id: string | null) {
  const found = findNode(nodes, id);
  return found?.nodeType === 'folder' ? found : null;
}

/**
 * What the file browser offers. A guest downloads by the grant the administrator made for this matter, not by
 * canRetrieve (the server's rule). Rename and Move follow the rename rule the server's route declares.
 */
function browserPermissions(user: SessionUser, guestAccess: 'download' | 'view' | undefined) {
  const { role, permissions: p } = user;
  const canRetrieve = role === 'guest' ? guestAccess === 'download' : p.canRetrieve;
  // A guest with a view grant reads files in the preview without downloading them.
  const canPreview = role === 'guest' ? guestAccess !== undefined : p.canRetrieve;
  return { canUpload: p.canUpload, canRename: shows(user, 'renameNode'), canDelete: p.canDelete, canRetrieve, canPreview };
}

/** The page's skeleton while the matter and its tree load. */
function LoadingMatter() {
  return (
    <div className="grid gap-3" aria-busy="true" aria-label="Loading matter">
      <Skeleton className="h-8 w-72 max-w-full" />
      <Skeleton className="h-4 w-96 max-w-full" />
      <Skeleton className="mt-4 h-80 w-full" />
    </div>
  );
}

function BackToList() {
  const location = useLocation();
  return (
    <Link
      to={backToListHref(location.state as WorkspaceLocationState | null)}
      className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm text-link hover:underline focus-visible:outline-2 focus-visible:outline-ring"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Matters
    </Link>
  );
}

/** An earlier version's facts in place of the current one's, for the panel that shows it. */
function versionFacts(v: NodeVersionDto) {
  // The text state the tree carries is the current version's: an earlier one shows none rather than another's.
  return {
    fileSize: v.fileSize,
    sha256Hash: v.sha256Hash,
    mimeType: v.mimeType,
    createdAt: v.createdAt,
    createdByName: v.createdByName,
    textState: undefined,
    textReason: undefined,
  };
}

type PreviewAsideProps = {
  file: NodeTreeDto;
  matter: { id: string; matterName: string };
  path: string;
  permissions: ReturnType<typeof browserPermissions>;
  readOnlyReason: string | null;
  /** The PDF page to show first (from a search hit); for the current version only. */
  page: number | null;
  /** Whose saved panel width to use. */
  userId: string | number;
  onClose: () => void;
};

/** The open file's panel: its preview (the current version, or an earlier one chosen below) and its versions. */
function PreviewAside({ file, matter, path, permissions, readOnlyReason, page, userId, onClose }: PreviewAsideProps) {
  const [version, setVersion] = useState<NodeVersionDto | null>(null);
  const [width, setWidth] = usePreviewWidth(userId);
  const ref = useRef<HTMLElement>(null);
  return (
    // Beside the contents from 1024 px, as wide as its person left it (else a width for the screen), with a handle
    // on its left edge; narrower, a sheet over the whole screen until closed.
    <aside
      ref={ref}
      aria-label="File preview"
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      style={width === null ? undefined : ({ '--preview-width': `${width}px` } as CSSProperties)}
      className={cn(
        'fixed inset-0 z-50 flex flex-col gap-4 bg-background p-4 lg:sticky lg:top-20 lg:z-auto lg:h-[calc(100dvh-6rem)] lg:shrink-0 lg:self-start lg:rounded-lg lg:border lg:border-border lg:bg-card',
        width === null ? 'lg:w-[24rem] xl:w-[28rem] 2xl:w-[38rem]' : 'lg:w-[var(--preview-width)]',
      )}
    >
      <PreviewResizeHandle panel={ref} width={width} onWidth={setWidth} />
      {/* The preview scrolls in its own box (its viewers follow the page in view there); the versions below it. */}
      <div className="min-h-0 flex-1">
        <FilePreviewPanel
          key={version?.versionNumber ?? 'current'}
          node={version ? { ...file, ...versionFacts(version) } : file}
          version={version ? { versionNumber: version.versionNumber, onShowCurrent: () => setVersion(null) } : undefined}
          page={version ? null : page}
          matter={matter}
          path={path}
          canDownload={permissions.canRetrieve}
          onClose={onClose}
        />
      </div>
      <section aria-label="Versions" className="grid max-h-[35%] shrink-0 gap-2 overflow-auto">
        <h3 className="text-sm font-semibold">Versions</h3>
        <VersionsList
          node={file}
          canRestore={permissions.canUpload && readOnlyReason === null}
          canDownload={permissions.canRetrieve}
          onPreview={setVersion}
        />
      </section>
    </aside>
  );
}

/** A matter's own page: its facts and actions, the folder tree beside the contents, and the selected file's panel. */
export function MatterWorkspace({ matterId, user }: { matterId: string; user: SessionUser }) {
  const { folderId, fileId, previewId, previewPage, setFolder, openPreview, closePreview } = useWorkspaceParams();
  // Every folder and the open folder's files (an id that cannot be a folder's asks for the root's, and is then
  // dropped from the address below).
  const detail = useMatterDetail(matterId, folderId && UUID.test(folderId) ? folderId : 'root');
  const [editOpen, setEditOpen] = useState(false);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [holdOpen, setHoldOpen] = useState(false);
  const [vaultOpen, setVaultOpen] = useState(false);
  const matter = detail.data?.matter;
  const nodes = detail.data?.nodes ?? [];
  useDocumentTitle(matter?.matterName ?? 'Matter');
  const p = user.permissions;
  // The server's rule: vaulted wins (vaulting applies a hold too), then the hold, an expired retention, and last
  // a person who may change nothing; each disables every action with its text.
  const reason = matter ? matterReadOnlyReason(matter, user) : null;
  const readOnlyReason = reason ? READ_ONLY_TEXT[reason] : null;
  // Someone who sees every matter read-only still sees the Edit button, disabled with the reason.
  const canEdit = user.role === 'admin' || p.canUpload || reason === 'READ_ONLY';
  // Holds are the administrators' call; vaulting is theirs and that of holders of canVault. A vaulted matter
  // keeps its hold button (an administrator may lift the hold so its retention can end) and loses Vault Matter.
  const isAdmin = shows(user, 'legalHold');
  const canVault = shows(user, 'vaultMatter');
  const folder = folderOf(nodes, folderId);
  // An id that is not a folder of this matter (another matter's, deleted, mistyped) means Root, quietly.
  const staleFolder = detail.isSuccess && folderId !== null && folder === null;
  // The address is corrected once when the id turns out stale, not again on every render that follows.
  const dropStaleFolder = useEffectEvent(() => setFolder(null, true));
  useEffect(() => {
    if (staleFolder) dropStaleFolder();
  }, [staleFolder]);
  const previewFile = usePreviewedFile(nodes, previewId, { folderId: folder?.id ?? null, loading: detail.isPlaceholderData });

  if (detail.isPending) return <LoadingMatter />;
  if (detail.isError || !matter) {
    const notFound = !matter || (isApiError(detail.error) && detail.error.status === 404);
    return notFound ? (
      <ErrorState title="Matter data not found." message={detail.error ? errorMessage(detail.error) : 'It may have been removed.'} />
    ) : (
      <ErrorState
        title={MATTER_MSG.fetchDetailFailed}
        message={errorMessage(detail.error)}
        onRetry={() => void detail.refetch()}
        retrying={detail.isFetching}
      />
    );
  }
  const permissions = browserPermissions(user, detail.data?.guestAccess);
  return (
    <>
      <WorkspaceHeader
        matter={matter}
        readOnlyReason={readOnlyReason}
        canEdit={canEdit}
        isAdmin={isAdmin}
        canVault={canVault}
        onEdit={() => setEditOpen(true)}
        onHold={() => setHoldOpen(true)}
        onVault={() => setVaultOpen(true)}
      />
      {reason && readOnlyReason ? (
        <Alert tone="warning" title={NOTICE_TITLE[reason]}>
          {readOnlyReason}
          {reason === 'LEGAL_HOLD' && matter.holdReason ? `: ${matter.holdReason}` : '.'}
        </Alert>
      ) : null}
      <div className="flex min-w-0 gap-4 md:h-[max(32rem,calc(100dvh-18.5rem))]">
        <div className="flex min-w-0 flex-1 flex-col">
          <FileBrowser
            matterId={matter.id}
            nodes={nodes}
            filesLoading={detail.isPlaceholderData}
            folderId={folder?.id ?? null}
            onFolderChange={setFolder}
            selectedFileId={previewFile?.id ?? fileId}
            permissions={permissions}
            readOnlyReason={readOnlyReason}
            onUpload={() => setUploadOpen(true)}
            layoutOwner={user.id}
            onOpenFile={(f) => {
              if (f.id !== previewId) openPreview(f.id);
            }}
          />
        </div>
        {previewFile ? (
          <PreviewAside
            key={previewFile.id}
            file={previewFile}
            matter={matter}
            path={previewPath(nodes, previewFile)}
            permissions={permissions}
            readOnlyReason={readOnlyReason}
            page={previewPage}
            userId={user.id}
            onClose={closePreview}
          />
        ) : null}
      </div>
      <EditMatterDialog matter={matter} open={editOpen} onOpenChange={setEditOpen} />
      <LegalHoldDialog matter={matter} open={holdOpen} onOpenChange={setHoldOpen} isAdmin={isAdmin} />
      {canVault ? <VaultMatterDialog matter={matter} open={vaultOpen} onOpenChange={setVaultOpen} /> : null}
      <UploadDialog
        open={uploadOpen}
        onOpenChange={setUploadOpen}
        organizationId={user.organizationId}
        matterId={matter.id}
        parentId={folder?.id ?? null}
        folderName={folder?.name ?? 'Root'}
        existingNames={(folder ? folder.children : nodes).filter((n) => n.nodeType === 'file').map((n) => n.name)}
      />
    </>
  );
}

/** /matters/:matterId: one matter, linkable and openable in a new tab, with its folder and preview in the address. */
export function MatterWorkspacePage() {
  const { matterId } = useParams();
  const user = useCurrentUser();
  return (
    <div className="grid min-w-0 gap-4">
      <BackToList />
      {matterId && user ? <MatterWorkspace key={matterId} matterId={matterId} user={user} /> : null}
    </div>
  );
}
