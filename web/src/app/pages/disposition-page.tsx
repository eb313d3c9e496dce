import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CalendarClock, ShieldAlert } from 'lucide-react';
import {
  DISPOSITION_STATUS_LABELS,
  DISPOSITION_STATUSES,
  type DispositionDecision,
  type DispositionItem,
  type DispositionStatus,
} from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api-error';
import { cn } from '@/lib/class-names';
import { useDocumentTitle } from '@/lib/document-title';
import { shows } from '@/lib/access-visibility';
import { PHONE_QUERY, useMediaQuery } from '@/lib/use-media-query';
import { withParams } from '@/lib/search-params';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { useDispositionList } from '@/features/disposition/api/disposition';
import { DecideDialog } from '@/features/disposition/components/decide-dialog';
import { DispositionCards, DispositionTable } from '@/features/disposition/components/disposition-list';

const DESCRIPTION =
  'Vaulted matters whose retention ends soon or has ended. Nothing is destroyed until an administrator approves it; extend the retention or place a legal hold instead.';

/** The tabs: the queue's open states first, then the decided ones, then everything. */
const FILTERS: Array<DispositionStatus | 'all'> = ['due', 'overdue', 'approved', 'extended', 'held', 'destroyed', 'all'];

export function DispositionPage() {
  useDocumentTitle('Disposition review');
  const user = useCurrentUser();
  const allowed = user ? shows(user, 'dispositionPage') : false;
  const canDecide = user ? shows(user, 'dispositionDecide') : false;
  const [sp, setSp] = useSearchParams();
  const raw = sp.get('status');
  const status =
    raw === 'all' ? 'all' : (((DISPOSITION_STATUSES as readonly string[]).includes(raw ?? '') ? raw : 'due') as DispositionStatus | 'all');
  const list = useDispositionList(status === 'all' ? undefined : status, allowed);
  const phone = useMediaQuery(PHONE_QUERY);
  const [deciding, setDeciding] = useState<{ item: DispositionItem; decision: DispositionDecision } | null>(null);
  const denied = !allowed || (isApiError(list.error) && list.error.status === 403);
  const counts = list.data?.counts;
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Disposition review"
        description={DESCRIPTION}
        actions={
          <Button variant="outline" asChild>
            <Link to="/vault">Back to the vault</Link>
          </Button>
        }
      />
      {denied ? (
        <EmptyState
          icon={ShieldAlert}
          title="Access Denied"
          description="Only administrators and people who may view vaulted matters can see the disposition review."
          className="rounded-lg border border-border"
        />
      ) : (
        <>
          <nav aria-label="Disposition states" className="flex flex-wrap gap-2">
            {FILTERS.map((f) => {
              const count = f === 'all' ? total : counts?.[f];
              const active = f === status;
              return (
                <Button
                  key={f}
                  size="sm"
                  variant={active ? 'primary' : 'outline'}
                  aria-pressed={active}
                  className={cn(f === 'overdue' && !active && (counts?.overdue ?? 0) > 0 && 'border-danger text-danger')}
                  onClick={() => setSp((prev) => withParams(prev, { status: f === 'due' ? null : f }), { replace: true })}
                >
                  {f === 'all' ? 'All' : DISPOSITION_STATUS_LABELS[f]}
                  {count !== undefined ? <span className="tabular-nums opacity-80">{count}</span> : null}
                </Button>
              );
            })}
          </nav>
          {list.data ? (
            <p className="text-sm text-muted-foreground">
              Matters enter the review {list.data.leadDays} days before their retention ends.
              {canDecide ? '' : ' Only administrators can decide.'}
            </p>
          ) : null}
          {list.isPending ? (
            <Skeleton className="h-40 w-full" />
          ) : list.isError ? (
            <ErrorState
              title="The disposition review could not be loaded"
              message={errorMessage(list.error)}
              onRetry={() => void list.refetch()}
            />
          ) : list.data.items.length === 0 ? (
            <EmptyState
              icon={CalendarClock}
              title={status === 'all' ? 'Nothing to review' : `Nothing ${DISPOSITION_STATUS_LABELS[status].toLowerCase()}`}
              description="Vaulted matters appear here as their retention end comes near."
              className="rounded-lg border border-border"
            />
          ) : phone ? (
            <DispositionCards items={list.data.items} decide={(item, decision) => setDeciding({ item, decision })} />
          ) : (
            <DispositionTable items={list.data.items} decide={(item, decision) => setDeciding({ item, decision })} />
          )}
        </>
      )}
      <DecideDialog
        item={deciding?.item ?? null}
        decision={deciding?.decision ?? 'destroy'}
        onOpenChange={(open) => !open && setDeciding(null)}
      />
    </div>
  );
}
