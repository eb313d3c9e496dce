import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { Plus, X } from 'lucide-react';
import { cn } from '@/lib/class-names';
import { inputClasses } from './input';
import { Spinner } from './spinner';

export type AutocompleteOption = { value: string; label: string; meta?: ReactNode; badge?: ReactNode };

/** How a value came: typed (free text, or the Add row that keeps it) or picked from the suggestions. */
export type AutocompleteChange = { picked: boolean };

type AutocompleteProps = {
  id?: string;
  value: string;
  onValueChange: (value: string, change: AutocompleteChange) => void;
  options: AutocompleteOption[];
  loading?: boolean;
  placeholder?: string;
  /** Shown in the list when there is nothing to suggest. */
  emptyMessage?: string;
  /** The suggestions could not be loaded: shown in the list instead of the empty message. */
  error?: string | null;
  /**
   * Offers a row that keeps the typed text as a new value (e.g. "Add 'Dana Dash'") whenever the text matches no
   * suggestion exactly: its label, and what it shows on the right.
   */
  addOption?: { label: (text: string) => string; meta?: ReactNode };
  /** Shows an x that empties the field. */
  clearable?: boolean;
  clearLabel?: string;
  className?: string;
  disabled?: boolean;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
};

type Row = { key: string; value: string; label: string; meta?: ReactNode; badge?: ReactNode; picked: boolean; add?: boolean };

type ListStatus = 'loading' | 'error' | 'empty' | null;

const MAX_LIST_PX = 240;
const GAP_PX = 4;

/** The suggestions, then the Add row when the typed text is new (the same name in other case is not new). */
function listRows(options: AutocompleteOption[], value: string, addOption: AutocompleteProps['addOption']): Row[] {
  const rows: Row[] = options.map((o) => ({ key: `o:${o.value}`, ...o, picked: true }));
  const text = value.trim();
  const known = options.some((o) => o.value.trim().toLowerCase() === text.toLowerCase());
  if (addOption && text && !known)
    rows.push({ key: 'add', value: text, label: addOption.label(text), meta: addOption.meta, picked: false, add: true });
  return rows;
}

type ListContentProps = {
  status: ListStatus;
  error?: string | null;
  emptyMessage?: string;
  rows: Row[];
  listId: string;
  listLabel: string;
  active: number;
  onChoose: (row: Row) => void;
  onHover: (index: number) => void;
};

/**
 * What the open list shows: a line of status (loading, the failure, the empty message), not an option, then the
 * rows as options of the listbox.
 */
function ListContent({ status, error, emptyMessage, rows, listId, listLabel, active, onChoose, onHover }: ListContentProps) {
  return (
    <>
      {status === 'loading' ? (
        <p role="status" className="flex items-center gap-2 px-2 py-2 text-muted-foreground">
          <Spinner /> Loading…
        </p>
      ) : status === 'error' ? (
        <p role="alert" className="px-2 py-2 text-danger">
          {error}
        </p>
      ) : status === 'empty' ? (
        <p role="status" className="px-2 py-2 text-muted-foreground">
          {emptyMessage}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <ul id={listId} role="listbox" aria-label={listLabel}>
          {rows.map((row, i) => (
            <li
              key={row.key}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cn(
                'flex cursor-pointer items-center justify-between gap-3 rounded px-2 py-1.5',
                row.add && i > 0 && 'mt-1 border-t border-border pt-2',
                i === active ? 'bg-accent text-accent-foreground' : 'hover:bg-accent/60',
              )}
              onClick={() => onChoose(row)}
              onMouseEnter={() => onHover(i)}
            >
              <span className="flex min-w-0 items-center gap-2 font-medium">
                {row.add ? <Plus aria-hidden="true" className="size-3.5 shrink-0" /> : null}
                <span className="truncate">{row.label}</span>
              </span>
              <span className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
                {row.meta}
                {row.badge}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

type Placement = { side: 'below' | 'above'; maxHeight: number };

/**
 * Where the list opens. Inside a dialog it never reaches over the dialog's buttons (its footer) nor past the
 * dialog's edges: below the field when it fits there (or there is more room below), otherwise above it.
 */
function useListPlacement(
  open: boolean,
  inputRef: RefObject<HTMLInputElement | null>,
  listRef: RefObject<HTMLDivElement | null>,
  rowCount: number,
) {
  const [placement, setPlacement] = useState<Placement>({ side: 'below', maxHeight: MAX_LIST_PX });
  useLayoutEffect(() => {
    const input = inputRef.current;
    const list = listRef.current;
    if (!open || !input || !list) return;
    const box = input.getBoundingClientRect();
    if (box.height === 0) return; // not laid out (nothing to measure)
    const dialog = input.closest('[role="dialog"]');
    const footer = dialog?.querySelector('[data-dialog-footer]');
    const dialogBox = dialog?.getBoundingClientRect();
    const bottom = Math.min(window.innerHeight, dialogBox?.bottom ?? Infinity, footer?.getBoundingClientRect().top ?? Infinity);
    const top = Math.max(0, dialogBox?.top ?? 0);
    const below = Math.floor(bottom - box.bottom - 2 * GAP_PX);
    const above = Math.floor(box.top - top - 2 * GAP_PX);
    const wanted = Math.min(list.scrollHeight, MAX_LIST_PX);
    const next: Placement =
      below >= wanted || below >= above
        ? { side: 'below', maxHeight: Math.min(MAX_LIST_PX, below) }
        : { side: 'above', maxHeight: Math.min(MAX_LIST_PX, above) };
    setPlacement((p) => (p.side === next.side && p.maxHeight === next.maxHeight ? p : next));
  }, [open, inputRef, listRef, rowCount]);
  return placement;
}

/**
 * A text field with suggestions (ARIA combobox with a listbox). Free text is allowed: the typed value stands
 * unless a suggestion is picked with the arrows and Enter (or Tab), or a click. The list closes once the value is
 * committed: a row chosen, Enter, Tab, Escape or leaving the field.
 */
export function Autocomplete({
  id,
  value,
  onValueChange,
  options,
  loading,
  placeholder,
  emptyMessage,
  error,
  addOption,
  clearable,
  clearLabel = 'Clear',
  className,
  disabled,
  ...aria
}: AutocompleteProps) {
  const generated = useId();
  const listId = `${id ?? generated}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const popupRef = useRef<HTMLDivElement>(null);
  const rows = listRows(options, value, addOption);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (row: Row) => {
    onValueChange(row.value, { picked: row.picked });
    close();
  };

  const status: ListStatus =
    loading && options.length === 0
      ? 'loading'
      : options.length === 0 && error
        ? 'error'
        : options.length === 0 && emptyMessage
          ? 'empty'
          : null;
  const showList = open && !disabled && (rows.length > 0 || status !== null);
  const showOptions = showList && rows.length > 0;
  const placement = useListPlacement(Boolean(showList), inputRef, popupRef, rows.length);
  // The highlighted row, while it still exists: the rows change as suggestions arrive, and a row the pointer
  // highlighted a moment ago may be gone.
  const activeRow = showOptions && active >= 0 && active < rows.length ? active : -1;

  // Escape closes the list (when one shows), not the dialog around it: dialogs listen on the document in the
  // capture phase, so the list listens on the window, which comes first.
  useEffect(() => {
    if (!showList) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && document.activeElement === inputRef.current) {
        e.stopPropagation();
        e.preventDefault();
        setOpen(false);
      }
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [showList]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const current = activeRow >= 0 ? rows[activeRow] : undefined;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive(Math.min(rows.length - 1, activeRow + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive(Math.max(-1, activeRow - 1));
    } else if (e.key === 'Enter' && showList) {
      // The first Enter commits the value and closes the list; only an Enter with the list closed submits.
      e.preventDefault();
      if (current) choose(current);
      else close();
    } else if (e.key === 'Tab') {
      // Tab takes the highlighted row, if any, and moves on as usual.
      if (current) choose(current);
      else close();
    }
  };

  return (
    <div className={cn('relative', className)}>
      <input
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={showOptions}
        aria-controls={showOptions ? listId : undefined}
        aria-activedescendant={activeRow >= 0 ? `${listId}-${activeRow}` : undefined}
        className={cn(inputClasses, clearable && value ? 'pr-9' : '')}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(e) => {
          onValueChange(e.target.value, { picked: false });
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
        {...aria}
      />
      {clearable && value && !disabled ? (
        <button
          type="button"
          aria-label={clearLabel}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-1 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
          onClick={() => {
            onValueChange('', { picked: false });
            inputRef.current?.focus();
          }}
        >
          <X aria-hidden="true" className="size-3.5" />
        </button>
      ) : null}
      {showList ? (
        <div
          ref={popupRef}
          data-side={placement.side}
          style={{ maxHeight: placement.maxHeight }}
          className={cn(
            'absolute z-50 w-full min-w-56 overflow-y-auto rounded-md border border-border bg-popover p-1 text-sm text-popover-foreground shadow-lg',
            placement.side === 'below' ? 'top-full mt-1' : 'bottom-full mb-1',
          )}
          // The field keeps the focus while the list is used with the mouse.
          onMouseDown={(e) => e.preventDefault()}
        >
          <ListContent
            status={status}
            error={error}
            emptyMessage={emptyMessage}
            rows={showOptions ? rows : []}
            listId={listId}
            listLabel={aria['aria-label'] ? `${aria['aria-label']} suggestions` : 'Suggestions'}
            active={activeRow}
            onChoose={choose}
            onHover={setActive}
          />
        </div>
      ) : null}
    </div>
  );
}
