import type { ComponentProps } from 'react';
import { cn } from '@/lib/class-names';

export type BadgeTone = 'neutral' | 'primary' | 'success' | 'warning' | 'danger' | 'outline';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-muted text-foreground border-transparent',
  primary: 'bg-primary-soft text-primary-soft-foreground border-transparent',
  success: 'bg-success-soft text-success border-success/30',
  warning: 'bg-warning-soft text-warning border-warning/30',
  danger: 'bg-danger-soft text-danger border-danger/30',
  outline: 'bg-transparent text-foreground border-border',
};

export function Badge({ tone = 'neutral', className, ...props }: ComponentProps<'span'> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap [&_svg]:size-3',
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
