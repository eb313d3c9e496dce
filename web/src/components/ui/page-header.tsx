import type { ReactNode } from 'react';
import { cn } from '@/lib/class-names';

type PageHeaderProps = { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string };

/** The <h1> of a page inside the shell, with an optional description and actions on the right. */
export function PageHeader({ title, description, actions, className }: PageHeaderProps) {
  return (
    <div className={cn('flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground">{title}</h1>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
