import type { NodeTreeDto } from '@strongroom/contracts';
import type { NodePermissions } from './node-actions';
import { DeleteNodeDialog, MoveNodeDialog, RenameNodeDialog } from './node-dialogs';
import { VersionsDialog } from './versions-dialog';

/** The action chosen in a row's menu, with its node; null while none is open. */
export type Action = { kind: 'versions' | 'rename' | 'move' | 'delete'; node: NodeTreeDto } | null;

/** The dialog of the action chosen in a row's menu (rename, move, delete, versions), open until it is closed. */
export function ActionDialog({
  action,
  onClose,
  nodes,
  permissions,
  readOnlyReason,
}: {
  action: Action;
  onClose: () => void;
  nodes: NodeTreeDto[];
  permissions: NodePermissions;
  readOnlyReason: string | null;
}) {
  const onOpenChange = (o: boolean) => !o && onClose();
  switch (action?.kind) {
    case 'rename':
      return <RenameNodeDialog open onOpenChange={onOpenChange} node={action.node} />;
    case 'move':
      return <MoveNodeDialog open onOpenChange={onOpenChange} node={action.node} nodes={nodes} />;
    case 'delete':
      return <DeleteNodeDialog open onOpenChange={onOpenChange} node={action.node} />;
    case 'versions':
      return (
        <VersionsDialog
          open
          onOpenChange={onOpenChange}
          node={action.node}
          canRestore={permissions.canUpload && readOnlyReason === null}
          canDownload={permissions.canRetrieve}
        />
      );
    default:
      return null;
  }
}
