import { useState, type ReactNode } from 'react';
import { ChevronRight, Folder, FolderOpen, HardDrive } from 'lucide-react';
import type { NodeTreeDto } from '@strongroom/contracts';
import { ContextMenu, ContextMenuContent, ContextMenuTrigger } from '@/components/ui/context-menu';
import { cn } from '@/lib/class-names';
import { ancestorsOf, folderTree } from '../lib/tree';

type FolderTreeProps = {
  nodes: NodeTreeDto[];
  /** null: Root; undefined: nothing chosen yet (move picker). */
  selectedId: string | null | undefined;
  onSelect: (id: string | null) => void;
  /** Entries that cannot be chosen (move picker). */
  isDisabled?: (id: string | null) => boolean;
  label: string;
  /** Right-click menu items of a folder (the matter's tree; the move picker has none). */
  menuFor?: (folder: NodeTreeDto) => ReactNode;
};

const rowBase =
  'flex min-w-0 flex-1 items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm transition-colors focus-visible:outline-2 focus-visible:outline-ring';

/** Folders of a matter, Root first; each level folds open. */
export function FolderPicker({ nodes, selectedId, onSelect, isDisabled, label, menuFor }: FolderTreeProps) {
  const folders = folderTree(nodes);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(ancestorsOf(nodes, selectedId ?? null).map((n) => n.id)));
  // Opening a folder from the list (or a new tree with it) unfolds the tree down to it, during the same render.
  const [unfoldedFor, setUnfoldedFor] = useState({ nodes, selectedId });
  if (unfoldedFor.nodes !== nodes || unfoldedFor.selectedId !== selectedId) {
    setUnfoldedFor({ nodes, selectedId });
    const path = ancestorsOf(nodes, selectedId ?? null).slice(0, -1);
    if (path.length > 0) setExpanded((prev) => (path.every((n) => prev.has(n.id)) ? prev : new Set([...prev, ...path.map((n) => n.id)])));
  }
  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const withMenu = (folder: NodeTreeDto | null, button: ReactNode) => {
    if (!folder || !menuFor) return button;
    return (
      <ContextMenu>
        <ContextMenuTrigger asChild>{button}</ContextMenuTrigger>
        <ContextMenuContent aria-label={`Actions for ${folder.name}`}>{menuFor(folder)}</ContextMenuContent>
      </ContextMenu>
    );
  };

  const entry = (folder: NodeTreeDto | null, depth: number, hasChildren: boolean, open: boolean) => {
    const id = folder?.id ?? null;
    const name = folder?.name ?? 'Root';
    const disabled = isDisabled?.(id) ?? false;
    const selected = selectedId === id;
    const Icon = id === null ? HardDrive : open || selected ? FolderOpen : Folder;
    const button = (
      <button
        type="button"
        disabled={disabled}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(id)}
        className={cn(
          rowBase,
          selected ? 'bg-primary-soft font-medium text-primary-soft-foreground' : 'hover:bg-accent data-[state=open]:bg-accent',
          disabled && 'cursor-not-allowed opacity-45 hover:bg-transparent',
        )}
      >
        <Icon aria-hidden="true" className={cn('size-4 shrink-0', id === null ? 'text-muted-foreground' : 'text-warning')} />
        <span className="truncate">{name}</span>
      </button>
    );
    return (
      <div className="flex items-center gap-0.5" style={{ paddingLeft: depth * 14 }}>
        {hasChildren && id !== null ? (
          <button
            type="button"
            aria-label={open ? `Collapse ${name}` : `Expand ${name}`}
            aria-expanded={open}
            onClick={() => toggle(id)}
            className="rounded p-0.5 text-muted-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
          >
            <ChevronRight aria-hidden="true" className={cn('size-4 transition-transform', open && 'rotate-90')} />
          </button>
        ) : (
          <span className="w-5 shrink-0" />
        )}
        {withMenu(folder, button)}
      </div>
    );
  };

  const render = (list: NodeTreeDto[], depth: number) =>
    list.map((f) => {
      const open = expanded.has(f.id);
      return (
        <li key={f.id}>
          {entry(f, depth, f.children.length > 0, open)}
          {open && f.children.length > 0 ? <ul>{render(f.children, depth + 1)}</ul> : null}
        </li>
      );
    });

  return (
    <nav aria-label={label}>
      <ul className="grid gap-0.5">
        <li>{entry(null, 0, false, true)}</li>
        {render(folders, 1)}
      </ul>
    </nav>
  );
}
