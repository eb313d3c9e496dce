import { cn } from '@/lib/class-names';

type ProgressBarProps = {
  /** What the bar measures, for screen readers. */
  label: string;
  /** Whole percent, 0 to 100. */
  value: number;
  /** The track's size and shape (default: 6 px high, full width). */
  className?: string;
  /** The filled part's colour (default: the primary colour). */
  barClassName?: string;
};

/** A horizontal bar of progress or share, announced as a progressbar with its percent. */
export function ProgressBar({ label, value, className, barClassName }: ProgressBarProps) {
  const pct = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      className={cn('h-1.5 w-full overflow-hidden rounded-full bg-muted', className)}
    >
      <div className={cn('h-full rounded-full bg-primary transition-[width] duration-200', barClassName)} style={{ width: `${pct}%` }} />
    </div>
  );
}
