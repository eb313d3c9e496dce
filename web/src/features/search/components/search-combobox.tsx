import { useId, useState, type KeyboardEvent, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { Search } from 'lucide-react';
import { SEARCH_LIMITS, SEARCH_MSG } from '@strongroom/contracts';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/class-names';
import { shortcutModifier } from '@/lib/platform-keys';
import { useSearchResults } from '../api/get-search-results';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { contentsOption, optionsOf, type SearchOption } from '../lib/search-targets';
import { SearchResults, SearchStatus } from './search-results';

/** Typing pauses this long before the server is asked. */
const DEBOUNCE_MS = 300;

type SearchComboboxProps = {
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
  autoFocus?: boolean;
  /** Called after a choice or a submitted search (the phone's full-width search closes then). */
  onDone?: () => void;
  /** Escape on a closed list (the phone's full-width search closes then). */
  onEscape?: () => void;
  /** Whether the list ends with a search of the documents' contents (the search page is not a guest's). */
  offerContents?: boolean;
};

/**
 * The top bar's search (ARIA combobox with a listbox): matters, folders and files as the user types, grouped by
 * matter. Arrows move, Enter opens the highlighted result, or without one the Matters page filtered by the text;
 * Escape closes the list.
 */
export function SearchCombobox({ inputRef, className, autoFocus, onDone, onEscape, offerContents = true }: SearchComboboxProps) {
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const settled = useDebouncedValue(text.trim(), DEBOUNCE_MS);
  const asking = settled.length >= SEARCH_LIMITS.queryMin;
  const results = useSearchResults(settled);
  const found = asking && results.data ? optionsOf(results.data.groups) : [];
  const expanded = open && text.trim().length >= SEARCH_LIMITS.queryMin && asking;
  const status = !expanded
    ? null
    : results.isError && !results.data
      ? 'error'
      : results.isPending || (results.isFetching && results.isPlaceholderData)
        ? 'loading'
        : found.length === 0
          ? 'empty'
          : null;
  // Once the names have answered (found or not), the last option searches the words inside documents.
  const contents = offerContents && expanded && status !== 'loading' ? [contentsOption(text.trim())] : [];
  const options = expanded ? [...(status ? [] : found), ...contents] : [];
  const optionId = (i: number) => `${listId}-option-${i}`;
  // The hint names the key this keyboard has: ⌘ on a Mac, Ctrl elsewhere (both work everywhere).
  const modifier = shortcutModifier();

  const go = (href: string) => {
    setOpen(false);
    setActive(-1);
    void navigate(href);
    onDone?.();
  };
  const pick = (o: SearchOption) => go(o.href);
  const submitText = () => {
    const q = text.trim();
    go(q ? `/matters?q=${encodeURIComponent(q)}` : '/matters');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i < 0 && step < 0 ? options.length - 1 : (i + step + options.length) % options.length));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const chosen = expanded ? options[active] : undefined;
      if (chosen) pick(chosen);
      else submitText();
    } else if (e.key === 'Escape') {
      if (expanded) {
        e.preventDefault();
        setOpen(false);
        setActive(-1);
      } else onEscape?.();
    }
  };

  return (
    <div role="search" className={cn('relative flex items-center', className)}>
      <Search aria-hidden="true" className="pointer-events-none absolute left-3 size-4 text-muted-foreground" />
      <input
        ref={inputRef}
        type="text"
        role="combobox"
        aria-label={SEARCH_MSG.label}
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 && active < options.length ? optionId(active) : undefined}
        aria-keyshortcuts="Control+K Meta+K"
        title={`${SEARCH_MSG.label} (${modifier}+K)`}
        placeholder={SEARCH_MSG.placeholder}
        autoComplete="off"
        spellCheck={false}
        autoFocus={autoFocus}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className={cn(
          'h-9 w-full min-w-0 rounded-md border border-input bg-muted/40 pr-14 pl-9 text-sm text-foreground placeholder:text-muted-foreground',
          'transition-colors focus-visible:border-ring focus-visible:bg-card focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/60',
        )}
      />
      <kbd
        aria-hidden="true"
        className="pointer-events-none absolute right-2 hidden rounded border border-border bg-card px-1.5 font-mono text-[0.7rem] text-muted-foreground md:block"
      >
        {modifier} K
      </kbd>
      <div
        className={cn(
          'absolute top-full right-0 left-0 z-50 mt-1 max-h-[min(28rem,70dvh)] overflow-auto rounded-lg border border-border bg-popover text-popover-foreground shadow-lg',
          !expanded && 'hidden',
        )}
      >
        {status ? (
          <SearchStatus
            state={status}
            message={results.error ? errorMessage(results.error) : undefined}
            onRetry={() => void results.refetch()}
          />
        ) : null}
        <SearchResults listId={listId} options={options} activeIndex={active} optionId={optionId} onPick={pick} onHover={setActive} />
      </div>
    </div>
  );
}
