import type { KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Lock } from 'lucide-react';
import { MATTER_MSG, type MatterSortField } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { SortableTableHead, Table, TableBody, TableCell, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/class-names';
import type { TableDensity } from '@/lib/table-density';
import { descriptionPreview, formatMatterDate } from '../lib/matter-format';
import { workspaceHref, type WorkspaceLocationState } from '@/lib/workspace-links';
import { FolderSearch } from 'lucide-react';

type MattersTableProps = {
  matters: Matter[];
  loading: boolean;
  sortBy: MatterSortField;
  sortDirection: 'asc' | 'desc';
  onSort: (field: MatterSortField) => void;
  onOpen: (matter: Matter) => void;
  /** Handed to the matter's page, so its way back returns to the list as it is. */
  linkState?: WorkspaceLocationState;
  density?: TableDensity;
};

/**
 * From 1280 px wide the table lays out in fixed shares of its width, so every column shows without sideways
 * scrolling: long text is cut with an ellipsis and shown whole on hover. Narrower, the columns keep their natural
 * widths and the table scrolls.
 */
const COLUMNS: { label: string; sort?: MatterSortField; className?: string }[] = [
  { label: 'Matter', sort: 'matter_name', className: 'min-w-56 xl:w-[20%] xl:min-w-0' },
  { label: 'Number', className: 'xl:w-[12%]' },
  { label: 'Created', sort: 'created_at', className: 'xl:w-[11%]' },
  { label: 'Client', sort: 'client_name', className: 'min-w-40 xl:w-[18%] xl:min-w-0' },
  { label: 'Responsible Lawyer', className: 'min-w-40 xl:w-[14%] xl:min-w-0 xl:whitespace-normal' },
  { label: 'Description', className: 'min-w-64 xl:w-[15%] xl:min-w-0' },
  { label: 'Status', sort: 'is_vaulted', className: 'xl:w-[10%]' },
];

/** A cell's text, cut with an ellipsis from 1280 px wide and shown whole on hover. */
function Clipped({ text, className }: { text: string; className?: string }) {
  return (
    <span title={text} className={cn('block xl:truncate', className)}>
      {text}
    </span>
  );
}

function Muted({ children }: { children: string }) {
  return <span className="text-muted-foreground italic">{children}</span>;
}

export function MattersTable(props: MattersTableProps) {
  const { matters, loading, sortBy, sortDirection, onSort, onOpen, linkState, density } = props;
  const onKey = (e: KeyboardEvent, m: Matter) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onOpen(m);
    }
  };
  return (
    <Table aria-label="Matters" aria-busy={loading || undefined} className="xl:table-fixed" density={density} stickyHeader>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((c) => (
            <SortableTableHead
              key={c.label}
              label={c.label}
              className={c.className}
              active={c.sort !== undefined && c.sort === sortBy}
              direction={sortDirection}
              onSort={c.sort ? () => onSort(c.sort!) : undefined}
            />
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {loading && matters.length === 0 ? (
          Array.from({ length: 8 }, (_, i) => (
            <TableRow key={i} className="hover:bg-transparent">
              {COLUMNS.map((c) => (
                <TableCell key={c.label}>
                  <Skeleton className={cn('h-4', c.label === 'Description' ? 'w-48' : 'w-24')} />
                </TableCell>
              ))}
            </TableRow>
          ))
        ) : matters.length === 0 ? (
          <TableRow className="hover:bg-transparent">
            <TableCell colSpan={COLUMNS.length}>
              <EmptyState
                icon={FolderSearch}
                title={MATTER_MSG.noMatters}
                titleAs="p"
                description="Try other filters, or create a new matter."
              />
            </TableCell>
          </TableRow>
        ) : (
          matters.map((m) => (
            <TableRow
              key={m.id}
              tabIndex={0}
              aria-label={`Open matter ${m.matterName}`}
              onClick={() => onOpen(m)}
              onKeyDown={(e) => onKey(e, m)}
              className={cn(
                'cursor-pointer focus-visible:bg-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
                loading && 'opacity-60',
              )}
            >
              <TableCell>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  {/* A real link, so the matter opens in a new tab or window as any link does; a plain click is the row's. */}
                  <Link
                    to={workspaceHref(m.id)}
                    state={linkState}
                    tabIndex={-1}
                    onClick={(e) => e.stopPropagation()}
                    className="max-w-full min-w-0 hover:underline"
                  >
                    <Clipped text={m.matterName} className="max-w-full font-medium" />
                  </Link>
                  {m.legalHold ? (
                    <Badge tone="danger">
                      <Lock aria-hidden="true" />
                      Legal Hold
                    </Badge>
                  ) : null}
                </div>
              </TableCell>
              <TableCell className="font-mono text-xs whitespace-nowrap">
                {m.matterNumber ? <Clipped text={m.matterNumber} /> : <Muted>No number</Muted>}
              </TableCell>
              <TableCell className="whitespace-nowrap">{formatMatterDate(m.createdAt)}</TableCell>
              <TableCell>{m.clientName ? <Clipped text={m.clientName} /> : <Muted>No client</Muted>}</TableCell>
              <TableCell>{m.responsibleLawyer ? <Clipped text={m.responsibleLawyer} /> : <Muted>No lawyer assigned</Muted>}</TableCell>
              <TableCell className="text-muted-foreground">
                <Clipped text={descriptionPreview(m.description)} />
              </TableCell>
              <TableCell>
                <Badge tone={m.isVaulted ? 'primary' : 'success'}>{m.status}</Badge>
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
