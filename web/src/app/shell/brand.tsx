import { cn } from '@/lib/class-names';

/** The Strongroom mark: a padlock on the accent colour. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="32" height="32" rx="8" fill="var(--primary)" />
      <path d="M10 14v-2.5a6 6 0 0 1 12 0V14" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
      <rect x="8" y="13.5" width="16" height="12" rx="2.5" fill="#fff" />
      <circle cx="16" cy="19.5" r="2" fill="var(--primary)" />
    </svg>
  );
}
