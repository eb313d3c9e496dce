import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { Folder, MoreHorizontal } from 'lucide-react';
import type { NodeTreeDto } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { ContextMenu, ContextMenuContent, ContextMenuTrigger } from '@/components/ui/context-menu';
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { SortableTableHead, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/class-names';
import { fileKind } from '@/lib/file-kind';
import { formatBytes } from '@/lib/format-bytes';
import { NodeActionItems, type nodeActions } from './node-actions';
import { TextStateBadge } from './text-state-badge';

type ContentsTableProps = {
  entries: NodeTreeDto[];
  folderName: string;
  actionsFor: (n: NodeTreeDto) => ReturnType<typeof nodeActions>;
  /** Enter, Space or a double-click on a row: a folder opens, a file opens its preview (or downloads). */
  onActivate: (n: NodeTreeDto) => void;
  selectedId?: string | null;
};

type SortField = 'name' | 'type' | 'size' | 'modified' | 'uploader';
type ContentsSort = { field: SortField; direction: 'asc' | 'desc' };

/** A row's height before it is measured (one line of text and the actions button). */
const ROW_PX = 53;
/** Rows drawn beyond each edge of the visible window, so a fast scroll does not show blank space. */
const OVERSCAN = 10;
/** The height assumed for a list not laid out yet (a hidden panel, a test without layout): a screenful of rows. */
const UNMEASURED_VIEW_PX = 600;

const typeLabel = (n: NodeTreeDto) => (n.nodeType === 'folder' ? 'Folder' : fileKind(n.name).label);
const SORT_VALUE: Record<SortField, (n: NodeTreeDto) => string | number> = {
  name: (n) => n.name,
  type: typeLabel,
  size: (n) => n.fileSize ?? -1,
  modified: (n) => Date.parse(n.updatedAt) || 0,
  uploader: (n) => n.createdByName ?? '',
};

/** Case and accents aside, numbers by value ('File 2' before 'File 10'); one collator for every comparison. */
const NAME_ORDER = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Folders stay above files; within each, the chosen column in the chosen direction, then by name. */
function sortEntries(entries: NodeTreeDto[], sort: ContentsSort): NodeTreeDto[] {
  const value = SORT_VALUE[sort.field];
  const sign = sort.direction === 'asc' ? 1 : -1;
  const byName = (a: NodeTreeDto, b: NodeTreeDto) => NAME_ORDER.compare(a.name, b.name);
  return [...entries].sort((a, b) => {
    if (a.nodeType !== b.nodeType) return a.nodeType === 'folder' ? -1 : 1;
    const va = value(a);
    const vb = value(b);
    const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : NAME_ORDER.compare(String(va), String(vb));
    return c !== 0 ? sign * c : byName(a, b);
  });
}

/**
 * Where the contents are narrow (a preview panel beside them, a laptop, a phone), the columns something else
 * already tells give way one by one, so that the name, the date and the row's actions always show whole: the type
 * (the icon tells it), who added the file, the time of day, then the size (the preview panel says each). Measured
 * on the list's own width, not the window's.
 */
const NARROW_HIDES_TYPE = '@max-[52rem]:hidden';
const NARROW_HIDES_UPLOADER = '@max-[44rem]:hidden';
const NARROW_HIDES_SIZE = '@max-[28rem]:hidden';

const COLUMNS: { field: SortField; label: string; className?: string }[] = [
  { field: 'name', label: 'Name' },
  { field: 'type', label: 'Type', className: NARROW_HIDES_TYPE },
  { field: 'size', label: 'Size', className: cn('text-right', NARROW_HIDES_SIZE) },
  { field: 'modified', label: 'Modified' },
  { field: 'uploader', label: 'Added by', className: NARROW_HIDES_UPLOADER },
];

function formatModified(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function formatDay(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** Where an arrow, Home, End or a page key moves focus from row `i` of `count`, or null for other keys. */
function targetRow(key: string, i: number, count: number): number | null {
  const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  if (key in step) return Math.min(count - 1, Math.max(0, i + step[key]!));
  return null;
}

type RowProps = {
  node: NodeTreeDto;
  index: number;
  selected: boolean;
  actions: ReturnType<typeof nodeActions>;
  measure: (el: HTMLTableRowElement | null) => void;
  onActivate: (n: NodeTreeDto) => void;
  onKeyDown: (e: KeyboardEvent, n: NodeTreeDto, index: number) => void;
};

function ContentsRow({ node: n, index, selected, actions, measure, onActivate, onKeyDown }: RowProps) {
  const isFolder = n.nodeType === 'folder';
  const kind = isFolder ? { icon: Folder, label: 'Folder', tone: 'text-warning' } : fileKind(n.name);
  const Icon = kind.icon;
  return (
    <ContextMenu>
      <ContextMenuTrigger asChild>
        <TableRow
          ref={measure}
          data-index={index}
          aria-rowindex={index + 2}
          tabIndex={0}
          aria-label={isFolder ? `Folder ${n.name}` : `File ${n.name}`}
          aria-current={selected ? 'true' : undefined}
          onDoubleClick={() => onActivate(n)}
          onKeyDown={(e) => onKeyDown(e, n, index)}
          className={cn(
            'cursor-default select-none focus-visible:bg-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring data-[state=open]:bg-muted/60',
            isFolder && 'cursor-pointer',
            selected && 'bg-primary-soft',
          )}
        >
          <TableCell className="max-w-0 min-w-48 @max-[36rem]:min-w-36">
            <span className="flex min-w-0 items-center gap-2.5">
              <Icon aria-hidden="true" className={cn('size-4 shrink-0', kind.tone)} />
              <span className="truncate font-medium" title={n.name}>
                {n.name}
              </span>
              <TextStateBadge node={n} />
            </span>
          </TableCell>
          <TableCell className={cn('whitespace-nowrap text-muted-foreground', NARROW_HIDES_TYPE)}>{kind.label}</TableCell>
          <TableCell className={cn('text-right whitespace-nowrap tabular-nums', NARROW_HIDES_SIZE)}>
            {isFolder ? '—' : formatBytes(n.fileSize)}
          </TableCell>
          <TableCell className="whitespace-nowrap text-muted-foreground">
            {/* Narrower still, the day without the time (the preview panel has both). */}
            <span className="@max-[36rem]:hidden">{formatModified(n.updatedAt)}</span>
            <span className="hidden @max-[36rem]:inline">{formatDay(n.updatedAt)}</span>
          </TableCell>
          <TableCell className={cn('max-w-40 truncate text-muted-foreground', NARROW_HIDES_UPLOADER)}>
            {isFolder ? '—' : (n.createdByName ?? '—')}
          </TableCell>
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
}

/**
 * The current folder's items: a row each, with its actions in a dropdown and on right-click; every column sorts.
 * Only the rows in view (and a few either side) are in the page, so a folder of thousands of files scrolls
 * smoothly; aria-rowcount and aria-rowindex tell assistive technology where each drawn row stands in the whole.
 * The arrow keys, Page Up/Down, Home and End move between rows, scrolling the one reached into view.
 */
export function ContentsTable({ entries, folderName, actionsFor, onActivate, selectedId }: ContentsTableProps) {
  const [sort, setSort] = useState<ContentsSort>({ field: 'name', direction: 'asc' });
  const toSort = (field: SortField) =>
    setSort((s) => (s.field === field ? { field, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { field, direction: 'asc' }));
  const rows = sortEntries(entries, sort);
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  // The virtualizer hands back new positions on each scroll; this component is not memoised by the compiler for it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: OVERSCAN,
    getItemKey: (i) => rows[i]!.id,
    observeElementRect: (instance, onRect) =>
      observeElementRect(instance, (rect) => onRect(rect.height > 0 ? rect : { width: rect.width, height: UNMEASURED_VIEW_PX })),
    // A row not laid out (no size yet) keeps the estimate rather than collapsing to nothing.
    measureElement: (el) => el.getBoundingClientRect().height || ROW_PX,
  });
  // The row to focus once it is drawn: a file chosen in the top bar's search, or the row an arrow key moved to.
  const pendingFocus = useRef<number | null>(null);
  const selectedIndex = selectedId ? rows.findIndex((n) => n.id === selectedId) : -1;
  useEffect(() => {
    if (selectedIndex < 0) return;
    pendingFocus.current = selectedIndex;
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
    // Only when the selection itself changes, not when sorting moves it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedId]);
  useEffect(() => {
    const i = pendingFocus.current;
    if (i === null) return;
    const row = body.current?.querySelector<HTMLElement>(`tr[data-index="${i}"]`);
    if (row) {
      pendingFocus.current = null;
      row.focus({ preventScroll: true });
    }
  });

  const onRowKey = (e: KeyboardEvent, n: NodeTreeDto, i: number) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onActivate(n);
      return;
    }
    const to = targetRow(e.key, i, rows.length);
    if (to === null) return;
    e.preventDefault();
    pendingFocus.current = to;
    virtualizer.scrollToIndex(to, { align: 'auto' });
    const row = body.current?.querySelector<HTMLElement>(`tr[data-index="${to}"]`);
    if (row) {
      pendingFocus.current = null;
      row.focus({ preventScroll: true });
    }
  };

  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return (
    <div ref={scroller} className="@container min-h-0 flex-1 overflow-auto" data-testid="contents-scroller">
      <Table
        aria-label={`Contents of ${folderName}`}
        aria-rowcount={rows.length + 1}
        containerClassName="overflow-visible rounded-none border-0"
      >
        <TableHeader className="sticky top-0 z-10 bg-muted">
          <TableRow className="hover:bg-transparent" aria-rowindex={1}>
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
        <TableBody ref={body}>
          {before > 0 ? (
            <tr aria-hidden="true" style={{ height: before }}>
              <td colSpan={COLUMNS.length + 1} className="p-0" />
            </tr>
          ) : null}
          {items.map((item) => {
            const n = rows[item.index]!;
            return (
              <ContentsRow
                key={n.id}
                node={n}
                index={item.index}
                selected={n.id === selectedId}
                actions={actionsFor(n)}
                measure={virtualizer.measureElement}
                onActivate={onActivate}
                onKeyDown={onRowKey}
              />
            );
          })}
          {after > 0 ? (
            <tr aria-hidden="true" style={{ height: after }}>
              <td colSpan={COLUMNS.length + 1} className="p-0" />
            </tr>
          ) : null}
        </TableBody>
      </Table>
    </div>
  );
}
