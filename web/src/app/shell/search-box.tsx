import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Search } from 'lucide-react';
import { cn } from '@/lib/class-names';

/** The top-bar search: sends the query to the Matters page, which owns search. */
export function SearchBox({ className }: { className?: string }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    void navigate(q ? `/matters?q=${encodeURIComponent(q)}` : '/matters');
  };
  return (
    <form role="search" onSubmit={submit} className={cn('relative flex items-center', className)}>
      <Search aria-hidden="true" className="pointer-events-none absolute left-3 size-4 text-muted-foreground" />
      <input
        type="search"
        aria-label="Search"
        placeholder="Search matters and files"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className={cn(
          'h-9 w-full min-w-0 rounded-md border border-input bg-muted/40 pr-3 pl-9 text-sm text-foreground placeholder:text-muted-foreground',
          'transition-colors focus-visible:border-ring focus-visible:bg-card focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/60',
        )}
      />
    </form>
  );
}
