import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/class-names';

type SpinnerProps = { className?: string; /** Announced to screen readers; omit when a visible text says it. */ label?: string };

export function Spinner({ className, label }: SpinnerProps) {
  return (
    <>
      <Loader2 aria-hidden="true" className={cn('size-4 animate-spin', className)} />
      {label ? <span className="sr-only">{label}</span> : null}
    </>
  );
}
