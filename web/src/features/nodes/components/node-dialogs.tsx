import { useRef, useState, type FocusEvent, type FormEvent } from 'react';
import { nameRuleMessages, nodeNameSchema, NODE_MSG, type NodeTreeDto } from '@strongroom/contracts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage, isApiError, isMfaCancelledError } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { toast } from '@/lib/toast';
import { toastWithUndo } from '@/lib/undo';
import { matterDetailQueryKey } from '@/lib/query-keys';
import { useQueryClient } from '@tanstack/react-query';
import { useCreateFolder } from '../api/create-folder';
import { useDeleteNode } from '../api/delete-node';
import { binQueryKey, useBinDays } from '../api/recycle-bin';
import { useMoveNode } from '../api/move-node';
import { useRenameNode } from '../api/rename-node';
import { FolderPicker } from './folder-tree';
import { isValidMoveTarget } from '../lib/tree';
import { conflictText } from '@/lib/conflicts';

const folderNameRule = nodeNameSchema(nameRuleMessages('Folder name', NODE_MSG.folderNameEmpty, NODE_MSG.folderNameTooLong));
const renameRule = nodeNameSchema(nameRuleMessages('Name', NODE_MSG.nameEmpty, NODE_MSG.nameTooLong));

type BaseProps = { open: boolean; onOpenChange: (open: boolean) => void };

// Each dialog's fields live in a form inside the dialog's content, which closing unmounts: every opening starts
// from the node as it is now. The mutation stays with the dialog, so its outcome is reported even when the
// dialog was closed while it ran.

type CreateFolderProps = { matterId: string; parentId: string | null; parentName: string };

export function CreateFolderDialog({ open, onOpenChange, ...props }: BaseProps & CreateFolderProps) {
  const create = useCreateFolder();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <CreateFolderForm {...props} create={create} onOpenChange={onOpenChange} />
      </DialogContent>
    </Dialog>
  );
}

function CreateFolderForm({
  matterId,
  parentId,
  parentName,
  create,
  onOpenChange,
}: CreateFolderProps & Pick<BaseProps, 'onOpenChange'> & { create: ReturnType<typeof useCreateFolder> }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = folderNameRule.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    create.mutate(
      { matterId, parentId, folderName: parsed.data },
      {
        onSuccess: () => {
          toast.success(NODE_MSG.folderCreated(parsed.data));
          onOpenChange(false);
        },
        onError: (err) => {
          if (!isMfaCancelledError(err)) toast.error(NODE_MSG.createFolderFailed, { description: errorMessage(err) });
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>Create New Folder</DialogTitle>
        <DialogDescription>In {parentName}.</DialogDescription>
      </DialogHeader>
      <FormField label="Folder name" error={error}>
        {(c) => (
          <Input
            {...c}
            autoFocus
            placeholder="Enter folder name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
          />
        )}
      </FormField>
      <DialogActions
        onCancel={() => onOpenChange(false)}
        submitLabel="Create Folder"
        pendingLabel="Creating..."
        pending={create.isPending}
      />
    </form>
  );
}

/** After an undo, the matter's tree is read again. */
function useRefreshTree(matterId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matterId) });
}

export function RenameNodeDialog({ open, onOpenChange, node }: BaseProps & { node: NodeTreeDto }) {
  const rename = useRenameNode();
  const refreshTree = useRefreshTree(node.matterId);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        {/* A name changed elsewhere while the dialog is open starts the field over from the new name. */}
        <RenameNodeForm key={node.name} node={node} rename={rename} refreshTree={refreshTree} onOpenChange={onOpenChange} />
      </DialogContent>
    </Dialog>
  );
}

type RenameNodeFormProps = Pick<BaseProps, 'onOpenChange'> & {
  node: NodeTreeDto;
  rename: ReturnType<typeof useRenameNode>;
  refreshTree: () => Promise<void>;
};

/**
 * The part of a file's name before its extension ('brief.final.pdf' → 9: 'brief.final'), so that typing replaces
 * the name and keeps the type; a folder, or a name without an extension, is taken whole.
 */
function nameStemLength(name: string, nodeType: NodeTreeDto['nodeType']): number {
  const dot = name.lastIndexOf('.');
  return nodeType === 'file' && dot > 0 ? dot : name.length;
}

/**
 * Selects the name's stem once the focus has settled: the dialog's focus handling selects the whole text right
 * after focusing the field (when it takes the focus back from the menu that opened the dialog, for one).
 */
function selectStem(input: HTMLInputElement, nodeType: NodeTreeDto['nodeType']) {
  queueMicrotask(() => {
    if (document.activeElement === input) input.setSelectionRange(0, nameStemLength(input.value, nodeType));
  });
}

/**
 * The field's focus handlers: until the person edits the name or clicks into it, taking the focus selects the
 * stem; after that the field keeps the selection they make.
 */
function useStemSelection(nodeType: NodeTreeDto['nodeType']) {
  const touched = useRef(false);
  const touch = () => {
    touched.current = true;
  };
  return {
    onFocus: (e: FocusEvent<HTMLInputElement>) => {
      if (!touched.current) selectStem(e.target, nodeType);
    },
    onPointerDown: touch,
    touch,
  };
}

/** A refusal the server answered (4xx): its text belongs on the name field; no answer or a 5xx is a failure. */
function refusalText(err: unknown): string | undefined {
  if (!isApiError(err) || err.status < 400 || err.status >= 500) return undefined;
  return conflictText(err, 'rename') ?? errorMessage(err);
}

function RenameNodeForm({ node, rename, refreshTree, onOpenChange }: RenameNodeFormProps) {
  const [name, setName] = useState(node.name);
  const [error, setError] = useState<string | undefined>();
  const stem = useStemSelection(node.nodeType);
  const isFolder = node.nodeType === 'folder';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = renameRule.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    if (parsed.data === node.name) return onOpenChange(false);
    setError(undefined);
    rename.mutate(
      { nodeId: node.id, newName: parsed.data },
      {
        onSuccess: (res) => {
          toastWithUndo(NODE_MSG.renamed(`"${node.name}"`), res, refreshTree);
          onOpenChange(false);
        },
        onError: (err) => {
          if (isMfaCancelledError(err)) return;
          // The server's reason (a name clash, a hold) is shown on the field and the dialog stays open to fix it.
          const refused = refusalText(err);
          if (refused) return setError(refused);
          toast.error(NODE_MSG.renameFailed, { description: errorMessage(err) });
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>{isFolder ? 'Rename Folder' : 'Rename File'}</DialogTitle>
        <DialogDescription>Choose a new name for "{node.name}".</DialogDescription>
      </DialogHeader>
      <FormField label="New name" error={error}>
        {(c) => (
          <Input
            {...c}
            autoFocus
            value={name}
            onChange={(e) => {
              stem.touch();
              setName(e.target.value);
            }}
            autoComplete="off"
            onFocus={stem.onFocus}
            onPointerDown={stem.onPointerDown}
          />
        )}
      </FormField>
      <DialogActions onCancel={() => onOpenChange(false)} submitLabel="Rename" pendingLabel="Renaming..." pending={rename.isPending} />
    </form>
  );
}

export function MoveNodeDialog({ open, onOpenChange, node, nodes }: BaseProps & { node: NodeTreeDto; nodes: NodeTreeDto[] }) {
  const move = useMoveNode();
  const refreshTree = useRefreshTree(node.matterId);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <MoveNodeForm node={node} nodes={nodes} move={move} refreshTree={refreshTree} onOpenChange={onOpenChange} />
      </DialogContent>
    </Dialog>
  );
}

type MoveNodeFormProps = Pick<BaseProps, 'onOpenChange'> & {
  node: NodeTreeDto;
  nodes: NodeTreeDto[];
  move: ReturnType<typeof useMoveNode>;
  refreshTree: () => Promise<void>;
};

function MoveNodeForm({ node, nodes, move, refreshTree, onOpenChange }: MoveNodeFormProps) {
  const [target, setTarget] = useState<string | null | undefined>(undefined);
  const valid = target !== undefined && isValidMoveTarget(nodes, node, target);
  const submit = () => {
    if (target === undefined || !valid) return;
    move.mutate(
      { nodeId: node.id, newParentId: target },
      {
        onSuccess: (res) => {
          toastWithUndo(NODE_MSG.moved(`"${node.name}"`), res, refreshTree);
          onOpenChange(false);
        },
        onError: (err) => {
          if (!isMfaCancelledError(err)) toast.error(NODE_MSG.moveFailed, { description: conflictText(err, 'move') ?? errorMessage(err) });
        },
      },
    );
  };
  return (
    <>
      <DialogHeader>
        <DialogTitle>Move "{node.name}"</DialogTitle>
        <DialogDescription>Choose the folder to move it to.</DialogDescription>
      </DialogHeader>
      <div className="max-h-80 overflow-y-auto rounded-md border border-border p-2">
        <FolderPicker
          nodes={nodes}
          selectedId={target}
          onSelect={setTarget}
          isDisabled={(id) => !isValidMoveTarget(nodes, node, id)}
          label="Destination folder"
        />
      </div>
      <DialogActions
        onCancel={() => onOpenChange(false)}
        submitLabel="Move Here"
        pendingLabel="Moving..."
        pending={move.isPending}
        disabled={!valid}
        onSubmit={submit}
      />
    </>
  );
}

/** Deleting moves the item to the recycle bin; the toast's Undo brings it back, as the bin's Restore does. */
export function DeleteNodeDialog({ open, onOpenChange, node }: BaseProps & { node: NodeTreeDto }) {
  const del = useDeleteNode(node.matterId);
  const days = useBinDays();
  const queryClient = useQueryClient();
  const refreshTree = useRefreshTree(node.matterId);
  const isFolder = node.nodeType === 'folder';
  const submit = () =>
    del.mutate(
      { nodeId: node.id },
      {
        onSuccess: (res) => {
          toastWithUndo(NODE_MSG.movedToBin, res, async () => {
            await refreshTree();
            await queryClient.invalidateQueries({ queryKey: binQueryKey(node.matterId) });
          });
          onOpenChange(false);
        },
        onError: (err) => {
          // A large folder waits for a second administrator: nothing is deleted yet (the waiting dialog says so).
          if (isApprovalRequiredError(err)) return onOpenChange(false);
          if (!isMfaCancelledError(err))
            toast.error(NODE_MSG.deleteFailed, { description: conflictText(err, 'delete') ?? errorMessage(err) });
        },
      },
    );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md" role="alertdialog">
        <DialogHeader>
          <DialogTitle>{isFolder ? 'Delete Folder' : 'Delete File'}</DialogTitle>
          <DialogDescription>
            {isFolder ? `"${node.name}" and everything in it will be deleted.` : `"${node.name}" will be deleted.`}{' '}
            {NODE_MSG.deleteGoesToBin(days)}
          </DialogDescription>
        </DialogHeader>
        <DialogActions
          onCancel={() => onOpenChange(false)}
          submitLabel="Delete"
          pendingLabel="Deleting..."
          pending={del.isPending}
          variant="destructive"
          onSubmit={submit}
        />
      </DialogContent>
    </Dialog>
  );
}
