import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowRight, type LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { DASHBOARD_MSG } from '@strongroom/contracts';

type WidgetCardProps = {
  /** Used for the heading's id; the section is labelled by its title. */
  id: string;
  title: string;
  icon: LucideIcon;
  link?: { to: string; label: string };
  children: ReactNode;
};

/** One dashboard widget: a titled section with its link ('View All', 'Details'...) in the corner. */
export function WidgetCard({ id, title, icon: Icon, link, children }: WidgetCardProps) {
  const headingId = `dashboard-${id}-title`;
  return (
    <Card className="flex min-w-0 flex-col">
      <section aria-labelledby={headingId} className="flex flex-1 flex-col" data-testid={`widget-${id}`}>
        <div className="flex items-center justify-between gap-3 p-5 pb-3">
          <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold">
            <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
            {title}
          </h2>
          {link ? (
            <Link
              to={link.to}
              className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-link underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              {link.label}
              <ArrowRight aria-hidden="true" className="size-3.5" />
            </Link>
          ) : null}
        </div>
        <div className="flex-1 px-5 pb-5">{children}</div>
      </section>
    </Card>
  );
}

/** Skeleton rows while a widget loads; announced once as busy. */
export function WidgetSkeleton({ rows = 3, label }: { rows?: number; label: string }) {
  return (
    <div role="status" aria-label={label} aria-busy="true" className="grid gap-3">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}

/** A widget's failure: its own text and a Retry that asks again. */
export function WidgetError({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <ErrorState
      title={message}
      titleAs="h3"
      message="Check your connection and try again."
      onRetry={onRetry}
      retrying={retrying}
      retryLabel={DASHBOARD_MSG.retry}
      className="py-6"
    />
  );
}

/** A figure with its label, as the count widgets show them. */
export function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="rounded-lg border border-border bg-muted/40 p-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
      {hint ? <dd className="mt-0.5 text-xs text-muted-foreground">{hint}</dd> : null}
    </div>
  );
}
