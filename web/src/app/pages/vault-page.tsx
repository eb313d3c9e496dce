import { useEffect, useEffectEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Archive, CalendarClock, ChevronLeft, ChevronRight, Search, ShieldAlert } from 'lucide-react';
import { VAULT_LIMITS, VAULT_MSG, VAULT_SORT_FIELDS, type VaultSortField } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage, isApiError } from '@/lib/api-error';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useDocumentTitle } from '@/lib/document-title';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { useVaultDetail } from '@/features/vault/api/get-vault-detail';
import { useVaultList, type VaultListParams } from '@/features/vault/api/get-vault-list';
import { ExportReportButton } from '@/features/vault/components/export-report-button';
import { VaultDetailSheet } from '@/features/vault/components/vault-detail-sheet';
import { VaultCards } from '@/features/vault/components/vault-cards';
import { VaultTable } from '@/features/vault/components/vault-table';
import { PHONE_QUERY, useMediaQuery } from '@/lib/use-media-query';
import { DensityToggle } from '@/components/ui/density-toggle';
import { useTableDensity } from '@/lib/table-density';
import { VaultFiles } from './vault/vault-files';
import { shows } from '@/lib/access-visibility';
import { withParams } from '@/lib/search-params';

const DESCRIPTION = 'Review immutable vaulted matters, read-only, for compliance and chain of custody.';
const HOLD_FILTERS = [
  { value: 'all', label: 'All Statuses' },
  { value: 'true', label: 'Under Legal Hold' },
  { value: 'false', label: 'Not Under Legal Hold' },
] as const;
type HoldFilter = VaultListParams['legalHold'];

/** A column sorted for the first time: names A to Z, the vaulted date newest first, the retention end soonest first. */
const FIRST_DIRECTION: Record<VaultSortField, 'asc' | 'desc'> = {
  matterName: 'asc',
  clientName: 'asc',
  vaultedAt: 'desc',
  retentionExpiresAt: 'asc',
};

const positiveInt = (raw: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
  const n = Number(raw ?? '');
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
};

/**
 * Everything the list shows is in the query string (page, pageSize, searchQuery, legalHold, sortBy,
 * sortDirection), and the matter whose details are open (matter), so a reload or a shared link shows the same.
 */
function readParams(sp: URLSearchParams) {
  const legalHold = sp.get('legalHold');
  const sortBy = sp.get('sortBy');
  return {
    page: positiveInt(sp.get('page'), 1),
    pageSize: positiveInt(sp.get('pageSize'), VAULT_LIMITS.pageSizeDefault, VAULT_LIMITS.pageSizeMax),
    searchQuery: sp.get('searchQuery') ?? '',
    legalHold: (legalHold === 'true' || legalHold === 'false' ? legalHold : 'all') as HoldFilter,
    sortBy: (sortBy && (VAULT_SORT_FIELDS as readonly string[]).includes(sortBy) ? sortBy : 'vaultedAt') as VaultSortField,
    sortDirection: sp.get('sortDirection') === 'asc' ? 'asc' : ('desc' as 'asc' | 'desc'),
    matterId: sp.get('matter'),
    // The matter last opened stays selected (highlighted, exported from the header) after its sheet closes.
    selectedId: sp.get('matter') ?? sp.get('selected'),
  };
}

/** Where the list is ('Page 2 of 3 (120 results)'), with Previous and Next. */
function VaultPager({ summary, page, last, go }: { summary: string; page: number; last: boolean; go: (page: number) => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
      <p aria-live="polite" className="tabular-nums">
        {summary}
      </p>
      <nav aria-label="Pagination" className="flex items-center gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => go(page - 1)}>
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <Button variant="outline" size="sm" disabled={last} onClick={() => go(page + 1)}>
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </nav>
    </div>
  );
}

/** The header's actions: the disposition review, and the report of the chosen matter (or the register). */
function VaultActions({ matter }: { matter: Parameters<typeof ExportReportButton>[0]['matter'] }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="outline" asChild>
        <Link to="/vault/disposition">
          <CalendarClock aria-hidden="true" />
          Disposition review
        </Link>
      </Button>
      <ExportReportButton matter={matter} register />
    </div>
  );
}

export function VaultPage() {
  useDocumentTitle('Vault');
  const user = useCurrentUser();
  const allowed = user ? shows(user, 'vaultPage') : false;
  const [sp, setSp] = useSearchParams();
  const state = readParams(sp);
  const [density, setDensity] = useTableDensity(user?.id);
  const phone = useMediaQuery(PHONE_QUERY);

  const update = (change: Record<string, string | null>) => setSp((prev) => withParams(prev, change), { replace: !('matter' in change) });

  // The search box follows the address (Back, a shared link) and writes to it 500 ms after the last keystroke.
  const [text, setText] = useState(state.searchQuery);
  const [seenQuery, setSeenQuery] = useState(state.searchQuery);
  if (state.searchQuery !== seenQuery) {
    setSeenQuery(state.searchQuery);
    setText(state.searchQuery);
  }
  const debounced = useDebouncedValue(text, VAULT_LIMITS.searchDebounceMs);
  const applySearch = useEffectEvent((value: string) => {
    if (value.trim() !== state.searchQuery) update({ searchQuery: value.trim(), page: null });
  });
  useEffect(() => applySearch(debounced), [debounced]);

  const params: VaultListParams = {
    page: state.page,
    pageSize: state.pageSize,
    searchQuery: state.searchQuery || undefined,
    legalHold: state.legalHold,
    sortBy: state.sortBy,
    sortDirection: state.sortDirection,
  };
  const list = useVaultList(params, allowed);
  const selected = useVaultDetail(allowed ? state.selectedId : null);
  const selectedMatter = list.data?.matters.find((m) => m.id === state.selectedId) ?? selected.data?.matter ?? null;

  const total = list.data?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / state.pageSize));
  const denied = !allowed || (isApiError(list.error) && list.error.status === 403);

  const sort = (field: VaultSortField) =>
    update({
      sortBy: field,
      sortDirection: state.sortBy === field ? (state.sortDirection === 'asc' ? 'desc' : 'asc') : FIRST_DIRECTION[field],
      page: null,
    });

  // A card on phones opens the details sheet exactly as a row's View Details does.
  const view = (m: { id: string }) => update({ matter: m.id, selected: m.id });

  return (
    <div className="grid gap-6">
      <PageHeader title="Vault" description={DESCRIPTION} actions={denied ? null : <VaultActions matter={selectedMatter} />} />
      {denied ? (
        <EmptyState
          icon={ShieldAlert}
          title="Access Denied"
          description={VAULT_MSG.viewPermissionDenied}
          className="rounded-lg border border-border"
        />
      ) : (
        <>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <div className="relative sm:max-w-sm sm:flex-1">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              />
              <Input
                type="search"
                aria-label="Search vaulted matters"
                placeholder="Search by matter name or client..."
                value={text}
                onChange={(e) => setText(e.target.value)}
                className="pl-9"
              />
            </div>
            <Select value={state.legalHold} onValueChange={(v) => update({ legalHold: v === 'all' ? null : v, page: null })}>
              <SelectTrigger aria-label="Legal hold status" className="sm:w-56">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {HOLD_FILTERS.map((f) => (
                  <SelectItem key={f.value} value={f.value}>
                    {f.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {list.isError && !list.data ? (
            <ErrorState
              title={VAULT_MSG.loadFailed}
              message={errorMessage(list.error, VAULT_MSG.fetchListFailed)}
              onRetry={() => void list.refetch()}
              retrying={list.isFetching}
              className="rounded-lg border border-border"
            />
          ) : list.data && list.data.matters.length === 0 ? (
            <EmptyState
              icon={Archive}
              title={VAULT_MSG.emptyTitle}
              description={VAULT_MSG.emptyBody}
              className="rounded-lg border border-border"
            />
          ) : (
            <div className="grid gap-3">
              <DensityToggle value={density} onChange={setDensity} className="justify-self-end" />
              {phone ? (
                <VaultCards
                  matters={list.data?.matters ?? []}
                  loading={list.isPending}
                  density={density}
                  onView={view}
                  selectedId={state.selectedId}
                />
              ) : (
                <VaultTable
                  density={density}
                  matters={list.data?.matters ?? []}
                  loading={list.isPending}
                  sortBy={state.sortBy}
                  sortDirection={state.sortDirection}
                  onSort={sort}
                  onView={view}
                  selectedId={state.selectedId}
                />
              )}
              <VaultPager
                summary={list.data ? `Page ${Math.min(state.page, pages)} of ${pages} (${total} results)` : ''}
                page={state.page}
                last={!list.data || state.page >= pages}
                go={(n) => update({ page: String(n) })}
              />
            </div>
          )}
          <VaultDetailSheet
            matterId={state.matterId}
            onClose={() => update({ matter: null })}
            renderFiles={(nodes) => <VaultFiles nodes={nodes} />}
          />
        </>
      )}
    </div>
  );
}
