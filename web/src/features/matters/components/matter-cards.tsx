import { FolderSearch, Lock } from 'lucide-react';
import { MATTER_MSG } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/class-names';
import type { TableDensity } from '@/lib/table-density';
import { formatMatterDate } from '../lib/matter-format';

type MatterCardsProps = {
  matters: Matter[];
  loading: boolean;
  density: TableDensity;
  onOpen: (matter: Matter) => void;
};

/** One line of a card: what it is and its value, or a muted 'none'. (A button holds only phrasing content: spans.) */
function Line({ label, value, none }: { label: string; value: string | null; none: string }) {
  return (
    <span className="flex min-w-0 gap-2">
      <span className="shrink-0 text-muted-foreground">{label}</span>
      <span className={cn('min-w-0 truncate', !value && 'text-muted-foreground italic')} title={value ?? undefined}>
        {value || none}
      </span>
    </span>
  );
}

/**
 * The matters list on phones: one card per matter with its name, number, client, lawyer, status and when it last
 * changed. The whole card is one button that opens the matter, as a row of the table does on wider screens.
 */
export function MatterCards({ matters, loading, density, onOpen }: MatterCardsProps) {
  const pad = density === 'compact' ? 'p-3 gap-1' : 'p-4 gap-2';
  if (loading && matters.length === 0) {
    return (
      <ul aria-label="Matters" aria-busy="true" className="grid gap-3">
        {Array.from({ length: 4 }, (_, i) => (
          <li key={i} className={cn('grid rounded-lg border border-border bg-card', pad)}>
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-56" />
            <Skeleton className="h-4 w-32" />
          </li>
        ))}
      </ul>
    );
  }
  if (matters.length === 0) {
    return (
      <EmptyState
        icon={FolderSearch}
        title={MATTER_MSG.noMatters}
        titleAs="p"
        description="Try other filters, or create a new matter."
        className="rounded-lg border border-border"
      />
    );
  }
  return (
    <ul aria-label="Matters" aria-busy={loading || undefined} className={cn('grid gap-3', loading && 'opacity-60')}>
      {matters.map((m) => (
        <li key={m.id}>
          <button
            type="button"
            aria-label={`Open matter ${m.matterName}`}
            onClick={() => onOpen(m)}
            className={cn(
              'grid w-full min-w-0 rounded-lg border border-border bg-card text-left text-sm shadow-xs transition-colors',
              'hover:bg-muted/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
              pad,
            )}
          >
            <span className="flex min-w-0 items-start justify-between gap-2">
              <span className="min-w-0 font-medium break-words">{m.matterName}</span>
              <span className="flex shrink-0 flex-wrap justify-end gap-1">
                {m.legalHold ? (
                  <Badge tone="danger">
                    <Lock aria-hidden="true" />
                    Legal Hold
                  </Badge>
                ) : null}
                <Badge tone={m.isVaulted ? 'primary' : 'success'}>{m.status}</Badge>
              </span>
            </span>
            <span className="grid min-w-0 gap-0.5">
              <Line label="Number" value={m.matterNumber} none="No number" />
              <Line label="Client" value={m.clientName} none="No client" />
              <Line label="Lawyer" value={m.responsibleLawyer} none="No lawyer assigned" />
              <Line label="Updated" value={formatMatterDate(m.updatedAt)} none="N/A" />
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
