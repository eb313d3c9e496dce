import { Fragment } from 'react';
import { Download, Eye, FolderInput, FolderOpen, History, Pencil, Trash2, type LucideIcon } from 'lucide-react';
import type { NodeTreeDto } from '@strongroom/contracts';
import { ContextMenuItem, ContextMenuSeparator } from '@/components/ui/context-menu';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';

export type NodePermissions = {
  canUpload: boolean;
  canRename: boolean;
  canDelete: boolean;
  canRetrieve: boolean;
  /** Whether files can be previewed (those who may download them, and a guest with a view grant). */
  canPreview?: boolean;
};

export type NodeAction = {
  key: 'open' | 'preview' | 'download' | 'versions' | 'rename' | 'move' | 'delete';
  label: string;
  icon: LucideIcon;
  disabled: boolean;
  /** Why it is disabled (legal hold, vaulted), shown on hover. */
  title?: string;
  destructive?: boolean;
  /** A separator goes before this item. */
  separated?: boolean;
  run: () => void;
};

type NodeActionContext = {
  permissions: NodePermissions;
  readOnlyReason: string | null;
  onOpen: (node: NodeTreeDto) => void;
  onDownload: (node: NodeTreeDto) => void;
  /** Opens a file's preview; without it no Open preview item is offered. */
  onPreview?: (node: NodeTreeDto) => void;
  onChange: (kind: 'versions' | 'rename' | 'move' | 'delete', node: NodeTreeDto) => void;
};

/**
 * What can be done to a node (its context menu: Rename, Move, Delete), with
 * Open or Download first, and a file's Versions after it. One list for the row's Actions dropdown and its right-click menu, so both always
 * offer the same items with the same permissions and disabled states.
 */
export function nodeActions(
  node: NodeTreeDto,
  { permissions, readOnlyReason, onOpen, onDownload, onPreview, onChange }: NodeActionContext,
): NodeAction[] {
  const isFolder = node.nodeType === 'folder';
  const title = readOnlyReason ?? undefined;
  const actions: NodeAction[] = [];
  if (!isFolder && onPreview) {
    const disabled = !(permissions.canPreview ?? permissions.canRetrieve);
    actions.push({ key: 'preview', label: 'Open preview', icon: Eye, disabled, run: () => onPreview(node) });
  }
  actions.push(
    isFolder
      ? { key: 'open', label: 'Open', icon: FolderOpen, disabled: false, run: () => onOpen(node) }
      : { key: 'download', label: 'Download', icon: Download, disabled: !permissions.canRetrieve, run: () => onDownload(node) },
  );
  // Anyone who sees a file sees its versions (restoring is decided inside, by canUpload and the matter's state).
  if (!isFolder)
    actions.push({ key: 'versions', label: 'Versions', icon: History, disabled: false, run: () => onChange('versions', node) });
  // Rename is offered to the people the server lets rename (folders and files alike), disabled in a read-only matter.
  if (permissions.canRename) {
    actions.push({
      key: 'rename',
      label: 'Rename',
      icon: Pencil,
      disabled: readOnlyReason !== null,
      title,
      run: () => onChange('rename', node),
    });
  }
  actions.push(
    {
      key: 'move',
      label: 'Move',
      icon: FolderInput,
      disabled: readOnlyReason !== null || !permissions.canRename,
      title,
      run: () => onChange('move', node),
    },
    {
      key: 'delete',
      label: 'Delete',
      icon: Trash2,
      disabled: readOnlyReason !== null || !permissions.canDelete,
      title,
      destructive: true,
      separated: true,
      run: () => onChange('delete', node),
    },
  );
  return actions;
}

/** The actions as items of a DropdownMenuContent or a ContextMenuContent. */
export function NodeActionItems({ actions, menu }: { actions: NodeAction[]; menu: 'dropdown' | 'context' }) {
  const Item = menu === 'dropdown' ? DropdownMenuItem : ContextMenuItem;
  const Separator = menu === 'dropdown' ? DropdownMenuSeparator : ContextMenuSeparator;
  return actions.map((a) => {
    const Icon = a.icon;
    return (
      <Fragment key={a.key}>
        {a.separated ? <Separator /> : null}
        <Item destructive={a.destructive} disabled={a.disabled} title={a.title} onSelect={a.run}>
          <Icon aria-hidden="true" />
          {a.label}
        </Item>
      </Fragment>
    );
  });
}
