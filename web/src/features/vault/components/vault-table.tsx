import { Eye } from 'lucide-react';
import type { VaultSortField } from '@strongroom/contracts';
import type { VaultedMatter } from '@/lib/dates';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { SortableTableHead, Table, TableBody, TableCell, TableHeader, TableRow } from '@/components/ui/table';
import type { TableDensity } from '@/lib/table-density';
import { VAULT_SKELETON_ROWS, formatDateTime } from '../lib/vault-format';
import { LegalHoldBadge, RetentionCell, VerificationCell } from './vault-badges';

type VaultTableProps = {
  matters: VaultedMatter[];
  /** Nothing to show yet: skeleton rows. */
  loading: boolean;
  sortBy: VaultSortField;
  sortDirection: 'asc' | 'desc';
  onSort: (field: VaultSortField) => void;
  onView: (matter: VaultedMatter) => void;
  selectedId: string | null;
  density?: TableDensity;
};

/**
 * From 1280 px wide the table lays out in fixed shares of its width, so View Details always shows without sideways
 * scrolling (long names are cut with an ellipsis and shown whole on hover); narrower, the table scrolls.
 */
const COLUMNS: { label: string; sort?: VaultSortField; className?: string }[] = [
  { label: 'Matter Name', sort: 'matterName', className: 'min-w-56 xl:w-[26%] xl:min-w-0' },
  { label: 'Vaulted At', sort: 'vaultedAt', className: 'xl:w-[16%]' },
  { label: 'Retention Ends', sort: 'retentionExpiresAt', className: 'min-w-40 xl:w-[15%] xl:min-w-0' },
  { label: 'Legal Hold', className: 'xl:w-[11%]' },
  { label: 'Last verification', className: 'xl:w-[15%] xl:whitespace-normal' },
  { label: 'Actions', className: 'text-right xl:w-[17%]' },
];

export function VaultTable({ matters, loading, sortBy, sortDirection, onSort, onView, selectedId, density }: VaultTableProps) {
  return (
    <Table aria-label="Vaulted matters" aria-busy={loading || undefined} className="xl:table-fixed" density={density} stickyHeader>
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
        {loading
          ? Array.from({ length: VAULT_SKELETON_ROWS }, (_, i) => (
              <TableRow key={i} data-testid="vault-skeleton-row" className="hover:bg-transparent">
                {COLUMNS.map((c) => (
                  <TableCell key={c.label}>
                    <Skeleton className="h-4 w-full max-w-40" />
                  </TableCell>
                ))}
              </TableRow>
            ))
          : matters.map((m) => (
              <TableRow key={m.id} data-state={m.id === selectedId ? 'selected' : undefined}>
                <TableCell>
                  <div className="grid min-w-0 gap-0.5">
                    <span title={m.matterName} className="font-medium xl:truncate">
                      {m.matterName}
                    </span>
                    <span title={m.clientName ?? undefined} className="text-xs text-muted-foreground xl:truncate">
                      {m.clientName ?? 'No client'}
                    </span>
                  </div>
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDateTime(m.vaultedAt)}</TableCell>
                <TableCell>
                  <RetentionCell expiresAt={m.retentionExpiresAt} />
                </TableCell>
                <TableCell>
                  <LegalHoldBadge held={m.legalHold} />
                </TableCell>
                <TableCell>
                  <VerificationCell verification={m.lastVerification} />
                </TableCell>
                <TableCell className="text-right">
                  <Button variant="outline" size="sm" onClick={() => onView(m)} aria-label={`View details of ${m.matterName}`}>
                    <Eye aria-hidden="true" />
                    View Details
                  </Button>
                </TableCell>
              </TableRow>
            ))}
      </TableBody>
    </Table>
  );
}
