import { useEffect, useEffectEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Archive, Lock, Pencil, ShieldCheck, ShieldOff } from 'lucide-react';
import {
  MATTER_MSG,
  matterReadOnlyReason,
  READ_ONLY_TEXT,
  VAULT_MSG,
  type MatterReadOnlyReason,
  type NodeTreeDto,
  type SessionUser,
} from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Tooltip } from '@/components/ui/tooltip';
import { errorMessage, isApiError } from '@/lib/api-error';
import { useMatterDetail } from '@/features/matters/api/get-matter-detail';
import { LegalHoldDialog } from '@/features/legal-hold/components/legal-hold-dialog';
import { EditMatterDialog } from '@/features/matters/components/edit-matter-dialog';
import { FileBrowser } from '@/features/nodes/components/file-browser';
import { FilePreviewSheet } from '@/features/preview/components/file-preview-sheet';
import { findNode } from '@/features/nodes/lib/tree';
import { UploadDialog } from '@/features/uploads/components/upload-dialog';
import { VaultMatterDialog } from '@/features/vault/components/vault-matter-dialog';
import { shows } from '@/lib/access-visibility';

/** The heading of the notice above the files of a read-only matter. */
const NOTICE_TITLE: Record<MatterReadOnlyReason, string> = {
  VAULTED: 'Vaulted',
  LEGAL_HOLD: 'Under legal hold',
  RETENTION_EXPIRED: 'Retention expired',
  READ_ONLY: 'Read-only',
};

type MatterDetailDialogProps = { matterId: string; user: SessionUser; onClose: () => void };

function Field({ label, value, mono }: { label: string; value: string | null; mono?: boolean }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={mono ? 'truncate font-mono text-sm' : 'truncate text-sm'}>
        {value ?? <span className="text-muted-foreground italic">—</span>}
      </dd>
    </div>
  );
}

/** The selected folder lives in the query string next to ?matter=, so a reload or Back returns to it. */
function useFolderParam() {
  const [sp, setSp] = useSearchParams();
  const set = (id: string | null, replace = false) =>
    setSp(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('folder', id);
        else next.delete('folder');
        // A file chosen in the top bar's search is selected only in the folder it was found in.
        next.delete('file');
        return next;
      },
      { replace },
    );
  return [sp.get('folder'), set, sp.get('file')] as const;
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

/**
 * A file's preview, in a drawer over the matter for now (the workspace page will give it a panel): the sheet to
 * render, and the setter the file rows' Open preview item calls.
 */
function usePreviewSheet(
  user: SessionUser,
  guestAccess: 'download' | 'view' | undefined,
  matter: { id: string; matterName: string } | undefined,
) {
  const [node, setNode] = useState<NodeTreeDto | null>(null);
  const sheet =
    node && matter ? (
      <FilePreviewSheet
        node={node}
        matter={matter}
        path={node.path}
        canDownload={browserPermissions(user, guestAccess).canRetrieve}
        onClose={() => setNode(null)}
      />
    ) : null;
  return [sheet, setNode] as const;
}

/** A matter with its folders and files, over the matters page (?matter=<id> reopens it after a reload). */
/** The dialog's skeleton while the matter and its tree load. */
function LoadingMatter() {
  return (
    <div className="grid gap-3" aria-busy="true" aria-label="Loading matter">
      <DialogTitle className="sr-only">Loading matter</DialogTitle>
      <Skeleton className="h-7 w-72" />
      <Skeleton className="h-4 w-96" />
      <Skeleton className="mt-4 h-80 w-full" />
    </div>
  );
}

export function MatterDetailDialog({ matterId, user, onClose }: MatterDetailDialogProps) {
  const detail = useMatterDetail(matterId);
  const [folderId, setFolderId, fileId] = useFolderParam();
  const [editOpen, setEditOpen] = useState(false);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [holdOpen, setHoldOpen] = useState(false);
  const [vaultOpen, setVaultOpen] = useState(false);
  const matter = detail.data?.matter;
  const [previewSheet, setPreviewing] = usePreviewSheet(user, detail.data?.guestAccess, matter);
  const nodes = detail.data?.nodes ?? [];
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
  const dropStaleFolder = useEffectEvent(() => setFolderId(null, true));
  useEffect(() => {
    if (staleFolder) dropStaleFolder();
  }, [staleFolder]);

  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="flex h-[min(52rem,calc(100dvh-2rem))] max-w-6xl flex-col gap-4 overflow-hidden">
        {detail.isPending ? (
          <LoadingMatter />
        ) : detail.isError ? (
          <>
            <DialogTitle className="sr-only">Matter</DialogTitle>
            {isApiError(detail.error) && detail.error.status === 404 ? (
              <ErrorState title="Matter data not found." message={errorMessage(detail.error)} />
            ) : (
              <ErrorState
                title={MATTER_MSG.fetchDetailFailed}
                message={errorMessage(detail.error)}
                onRetry={() => void detail.refetch()}
                retrying={detail.isFetching}
              />
            )}
          </>
        ) : !matter ? (
          <>
            <DialogTitle className="sr-only">Matter</DialogTitle>
            <ErrorState title="Matter data not found." message="It may have been removed." />
          </>
        ) : (
          <>
            <DialogHeader className="gap-3">
              <div className="flex flex-wrap items-center gap-3">
                <DialogTitle className="text-xl">{matter.matterName}</DialogTitle>
                <Badge tone={matter.isVaulted ? 'primary' : 'success'}>{matter.status}</Badge>
                {matter.legalHold ? (
                  <Badge tone="danger">
                    <Lock aria-hidden="true" />
                    Legal Hold
                  </Badge>
                ) : null}
                <div className="ml-auto flex flex-wrap items-center gap-2">
                  {isAdmin ? (
                    <Button variant="outline" size="sm" onClick={() => setHoldOpen(true)}>
                      {matter.legalHold ? <ShieldOff aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
                      {matter.legalHold ? 'Remove Legal Hold' : 'Apply Legal Hold'}
                    </Button>
                  ) : null}
                  {canVault && !matter.isVaulted ? (
                    matter.legalHold ? (
                      <Tooltip content={VAULT_MSG.vaultHeld}>
                        <span tabIndex={0} className="inline-flex rounded-md focus-visible:outline-2 focus-visible:outline-ring">
                          <Button variant="outline" size="sm" disabled>
                            <Archive aria-hidden="true" />
                            Vault Matter
                          </Button>
                        </span>
                      </Tooltip>
                    ) : (
                      <Button variant="outline" size="sm" onClick={() => setVaultOpen(true)}>
                        <Archive aria-hidden="true" />
                        Vault Matter
                      </Button>
                    )
                  ) : null}
                  {canEdit ? (
                    readOnlyReason ? (
                      <Tooltip content={readOnlyReason}>
                        <span tabIndex={0} className="inline-flex rounded-md focus-visible:outline-2 focus-visible:outline-ring">
                          <Button variant="outline" size="sm" disabled>
                            <Pencil aria-hidden="true" />
                            Edit
                          </Button>
                        </span>
                      </Tooltip>
                    ) : (
                      <Button variant="outline" size="sm" onClick={() => setEditOpen(true)}>
                        <Pencil aria-hidden="true" />
                        Edit
                      </Button>
                    )
                  ) : null}
                </div>
              </div>
              <DialogDescription asChild>
                <div className="grid gap-3">
                  <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-4">
                    <Field label="Matter Number" value={matter.matterNumber} mono />
                    <Field label="Client" value={matter.clientName} />
                    <Field label="Responsible Lawyer" value={matter.responsibleLawyer} />
                    <Field label="Created" value={new Date(matter.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })} />
                  </dl>
                  {matter.description ? <p className="line-clamp-2 text-sm text-muted-foreground">{matter.description}</p> : null}
                </div>
              </DialogDescription>
            </DialogHeader>
            {reason && readOnlyReason ? (
              <Alert tone="warning" title={NOTICE_TITLE[reason]}>
                {readOnlyReason}
                {reason === 'LEGAL_HOLD' && matter.holdReason ? `: ${matter.holdReason}` : '.'}
              </Alert>
            ) : null}
            <FileBrowser
              matterId={matter.id}
              nodes={nodes}
              folderId={folder?.id ?? null}
              onFolderChange={setFolderId}
              selectedFileId={fileId}
              permissions={browserPermissions(user, detail.data?.guestAccess)}
              readOnlyReason={readOnlyReason}
              onUpload={() => setUploadOpen(true)}
              layoutOwner={user.id}
              onPreview={setPreviewing}
            />
            {previewSheet}
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
            />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
