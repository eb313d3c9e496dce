import { Rows3, Rows4 } from 'lucide-react';
import { cn } from '@/lib/class-names';
import type { TableDensity } from '@/lib/table-density';

const OPTIONS: { value: TableDensity; label: string; Icon: typeof Rows3 }[] = [
  { value: 'comfortable', label: 'Comfortable', Icon: Rows3 },
  { value: 'compact', label: 'Compact', Icon: Rows4 },
];

/** A pair of pressed/unpressed buttons choosing how tall the rows of a list are. */
export function DensityToggle({
  value,
  onChange,
  className,
}: {
  value: TableDensity;
  onChange: (next: TableDensity) => void;
  className?: string;
}) {
  return (
    <div role="group" aria-label="Row density" className={cn('inline-flex rounded-md border border-border bg-card p-0.5', className)}>
      {OPTIONS.map(({ value: option, label, Icon }) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={cn(
            'inline-flex h-7 items-center gap-1.5 rounded px-2.5 text-xs font-medium text-muted-foreground transition-colors',
            'hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-3.5',
            value === option && 'bg-muted text-foreground',
          )}
        >
          <Icon aria-hidden="true" />
          {label}
        </button>
      ))}
    </div>
  );
}
