import type { ComponentProps, ReactNode } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { cn } from '@/lib/class-names';

type TableProps = ComponentProps<'table'> & {
  containerClassName?: string;
  /** Compact: shorter rows, so more of them show at once. */
  density?: 'comfortable' | 'compact';
  /**
   * From 1280 px wide (where the table fits without sideways scrolling) the header row stays in view under the
   * sticky top bar while the page scrolls. Narrower, the table scrolls sideways in its own box and the header
   * scrolls away with the page.
   */
  stickyHeader?: boolean;
};

/** A data table that scrolls sideways on narrow screens; give it a caption or aria-label. */
export function Table({ className, containerClassName, density = 'comfortable', stickyHeader = false, ...props }: TableProps) {
  return (
    <div
      data-density={density}
      className={cn(
        'relative w-full overflow-x-auto rounded-lg border border-border',
        // A sideways scroll box would hold the header inside it; clipping keeps the page as its scroller.
        stickyHeader && 'xl:overflow-x-clip',
        containerClassName,
      )}
    >
      <table
        className={cn(
          'w-full caption-bottom border-collapse text-sm',
          density === 'compact' && '[&_td]:py-1.5 [&_th]:h-8',
          // Opaque, so rows passing under the stuck header do not show through it; the same shade as before.
          stickyHeader &&
            'xl:[&_thead]:sticky xl:[&_thead]:top-16 xl:[&_thead]:z-10 xl:[&_thead]:bg-[color-mix(in_oklab,var(--color-muted)_60%,var(--color-background))]',
          className,
        )}
        {...props}
      />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('bg-muted/60 [&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr
      className={cn('border-b border-border transition-colors hover:bg-muted/40 data-[state=selected]:bg-primary-soft', className)}
      {...props}
    />
  );
}

export function TableHead({ className, scope = 'col', ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope={scope}
      className={cn(
        'h-10 px-4 text-left align-middle text-xs font-semibold tracking-wide text-muted-foreground uppercase whitespace-nowrap',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-4 py-3 align-middle text-foreground', className)} {...props} />;
}

/**
 * A column header. With onSort it is a button that sorts by the column: aria-sort says the direction on the
 * active column and 'none' on the others, and the arrow shows which way the rows run.
 */
export function SortableTableHead({
  label,
  className,
  active,
  direction,
  onSort,
}: {
  label: ReactNode;
  className?: string;
  active: boolean;
  direction: 'asc' | 'desc';
  /** Absent: the column does not sort. */
  onSort?: () => void;
}) {
  if (!onSort) return <TableHead className={className}>{label}</TableHead>;
  const Icon = active ? (direction === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <TableHead className={className} aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        onClick={onSort}
        className={cn(
          '-mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 uppercase hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
          active && 'text-foreground',
        )}
      >
        {label}
        <Icon aria-hidden="true" className={cn('size-3.5', !active && 'opacity-50')} />
      </button>
    </TableHead>
  );
}
