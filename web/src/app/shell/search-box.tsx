import { useEffect, useRef, useState } from 'react';
import { Search, X } from 'lucide-react';
import { SEARCH_MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/class-names';
import { SearchCombobox } from '@/features/search/components/search-combobox';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';

/**
 * The top-bar search: matters, folders and files as the user types. Ctrl+K (Cmd+K on a Mac) focuses it from
 * anywhere; on a phone the bar shows an icon that opens the search across the bar's full width.
 */
export function SearchBox({ className }: { className?: string }) {
  const inlineRef = useRef<HTMLInputElement>(null);
  const [wide, setWide] = useState(false);
  // A guest reads only the matters shared with them: the search of contents is the firm's own page.
  const offerContents = useCurrentUser()?.role !== 'guest';

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 'k') return;
      e.preventDefault();
      const inline = inlineRef.current;
      // The inline field is hidden on a phone: the full-width search opens instead.
      if (inline && inline.offsetParent !== null) inline.focus();
      else setWide(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <SearchCombobox inputRef={inlineRef} className={cn('hidden sm:flex', className)} offerContents={offerContents} />
      <Button
        variant="ghost"
        size="icon"
        className="sm:hidden"
        aria-label={SEARCH_MSG.label}
        aria-keyshortcuts="Control+K Meta+K"
        onClick={() => setWide(true)}
      >
        <Search aria-hidden="true" />
      </Button>
      {wide ? (
        <div className="fixed inset-x-0 top-0 z-50 flex h-16 items-center gap-2 border-b border-border bg-card px-3 sm:hidden">
          <SearchCombobox
            className="flex-1"
            autoFocus
            offerContents={offerContents}
            onDone={() => setWide(false)}
            onEscape={() => setWide(false)}
          />
          <Button variant="ghost" size="icon" aria-label="Close search" onClick={() => setWide(false)}>
            <X aria-hidden="true" />
          </Button>
        </div>
      ) : null}
    </>
  );
}
