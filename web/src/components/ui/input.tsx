import type { ComponentProps } from 'react';
import { cn } from '@/lib/class-names';

export const inputClasses =
  'flex h-10 w-full min-w-0 rounded-md border border-input bg-card px-3 py-2 text-sm text-foreground shadow-xs ' +
  'transition-colors placeholder:text-muted-foreground ' +
  'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/60 ' +
  'disabled:cursor-not-allowed disabled:opacity-55 ' +
  'aria-invalid:border-danger aria-invalid:focus-visible:outline-danger/60 ' +
  'file:border-0 file:bg-transparent file:text-sm file:font-medium';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input type={type} className={cn(inputClasses, className)} {...props} />;
}
