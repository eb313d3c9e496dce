import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { cn } from '@/lib/class-names';
import { inputClasses } from './input';
import { Spinner } from './spinner';

export type AutocompleteOption = { value: string; label: string; meta?: ReactNode; badge?: ReactNode };

type AutocompleteProps = {
  id?: string;
  value: string;
  onValueChange: (value: string) => void;
  options: AutocompleteOption[];
  loading?: boolean;
  placeholder?: string;
  /** Shown in the list when there is nothing to suggest. */
  emptyMessage?: string;
  /** The suggestions could not be loaded: shown in the list instead of the empty message. */
  error?: string | null;
  /** Shows an x that empties the field. */
  clearable?: boolean;
  clearLabel?: string;
  className?: string;
  disabled?: boolean;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
};

/**
 * A text field with suggestions (ARIA combobox with a listbox). Free text is allowed: the typed value stands
 * unless a suggestion is picked with the arrows and Enter, or a click.
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

  // Escape closes the list, not the dialog around it: dialogs listen on the document in the capture phase,
  // so the list listens on the window, which comes first.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && document.activeElement === inputRef.current) {
        e.stopPropagation();
        e.preventDefault();
        setOpen(false);
      }
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [open]);

  const pick = (option: AutocompleteOption) => {
    onValueChange(option.value);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(options.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(-1, a - 1));
    } else if (e.key === 'Enter' && open && active >= 0 && options[active]) {
      e.preventDefault();
      pick(options[active]);
    }
  };

  const showList = open && !disabled && (options.length > 0 || loading || emptyMessage || error);
  return (
    <div className={cn('relative', className)}>
      <input
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={Boolean(showList)}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        className={cn(inputClasses, clearable && value ? 'pr-9' : '')}
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(e) => {
          onValueChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        {...aria}
      />
      {clearable && value && !disabled ? (
        <button
          type="button"
          aria-label={clearLabel}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-1 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
          onClick={() => {
            onValueChange('');
            inputRef.current?.focus();
          }}
        >
          <X aria-hidden="true" className="size-3.5" />
        </button>
      ) : null}
      {showList ? (
        <ul
          id={listId}
          role="listbox"
          className="absolute z-50 mt-1 max-h-60 w-full min-w-56 overflow-y-auto rounded-md border border-border bg-popover p-1 text-sm text-popover-foreground shadow-lg"
          onMouseDown={(e) => e.preventDefault()}
        >
          {loading && options.length === 0 ? (
            <li className="flex items-center gap-2 px-2 py-2 text-muted-foreground">
              <Spinner /> Loading…
            </li>
          ) : options.length === 0 && error ? (
            <li role="alert" className="px-2 py-2 text-danger">
              {error}
            </li>
          ) : options.length === 0 ? (
            <li className="px-2 py-2 text-muted-foreground">{emptyMessage}</li>
          ) : (
            options.map((o, i) => (
              <li
                key={o.value}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={cn(
                  'flex cursor-pointer items-center justify-between gap-3 rounded px-2 py-1.5',
                  i === active ? 'bg-accent text-accent-foreground' : 'hover:bg-accent/60',
                )}
                onClick={() => pick(o)}
                onMouseEnter={() => setActive(i)}
              >
                <span className="truncate font-medium">{o.label}</span>
                <span className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
                  {o.meta}
                  {o.badge}
                </span>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
