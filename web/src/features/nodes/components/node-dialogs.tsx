import { useState, type FormEvent } from 'react';
import { nameRuleMessages, nodeNameSchema, NODE_MSG, type NodeTreeDto } from '@strongroom/contracts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { toastWithUndo } from '@/lib/undo';
import { matterDetailQueryKey } from '@/lib/query-keys';
import { useQueryClient } from '@tanstack/react-query';
import { useCreateFolder } from '../api/create-folder';
import { useDeleteNode } from '../api/delete-node';
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

function RenameNodeForm({ node, rename, refreshTree, onOpenChange }: RenameNodeFormProps) {
  const [name, setName] = useState(node.name);
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = renameRule.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    if (parsed.data === node.name) return onOpenChange(false);
    rename.mutate(
      { nodeId: node.id, newName: parsed.data },
      {
        onSuccess: (res) => {
          toastWithUndo(NODE_MSG.renamed(`"${node.name}"`), res, refreshTree);
          onOpenChange(false);
        },
        onError: (err) => {
          if (!isMfaCancelledError(err))
            toast.error(NODE_MSG.renameFailed, { description: conflictText(err, 'rename') ?? errorMessage(err) });
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>Rename Folder</DialogTitle>
        <DialogDescription>Choose a new name for "{node.name}".</DialogDescription>
      </DialogHeader>
      <FormField label="New name" error={error}>
        {(c) => (
          <Input
            {...c}
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            onFocus={(e) => e.target.select()}
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

export function DeleteNodeDialog({ open, onOpenChange, node }: BaseProps & { node: NodeTreeDto }) {
  const del = useDeleteNode(node.matterId);
  const isFolder = node.nodeType === 'folder';
  const submit = () =>
    del.mutate(
      { nodeId: node.id },
      {
        onSuccess: () => {
          toast.success(NODE_MSG.deleted(`"${node.name}"`));
          onOpenChange(false);
        },
        onError: (err) => {
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
            {isFolder ? `"${node.name}" and everything in it will be deleted.` : `"${node.name}" will be deleted.`} This action cannot be
            undone.
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
