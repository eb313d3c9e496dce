import type { ComponentProps } from 'react';
import { cn } from '@/lib/class-names';

/** A grey placeholder block; decorative, so hidden from screen readers (label the container instead). */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />;
}
