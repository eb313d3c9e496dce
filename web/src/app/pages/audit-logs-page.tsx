import { useState } from 'react';
import { ChevronLeft, ChevronRight, Download, RefreshCw, ScrollText } from 'lucide-react';
import { AUDIT_ACTIONS, AUDIT_CATEGORY_NAMES, AUDIT_LOG_LIMITS, AUDIT_LOG_MSG, auditCategoryOf } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { useDocumentTitle } from '@/lib/document-title';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { exportAuditLogs } from '@/features/audit/api/export-audit-logs';
import { auditLogsQueryKey, useAuditLogs } from '@/features/audit/api/get-audit-logs';
import { AuditLogFilters } from '@/features/audit/components/audit-log-filters';
import { AuditLogTable } from '@/features/audit/components/audit-log-table';
import { ArchivalPanel } from '@/features/archival/components/archival-panel';
import { ArchivedLogDialog } from '@/features/archival/components/archived-log-dialog';
import { useArchivedRetrievals } from '@/features/archival/hooks/use-archived-retrievals';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { DEFAULT_SORT, initialFilters, nextSort, type AuditFilters, type AuditSort } from '@/features/audit/lib/audit-filters';
import { shows } from '@/lib/access-visibility';

/** A notification's link (?action=…&day=YYYY-MM-DD) opens the page on that entry's action and day. */
function filtersFromLink(sp: URLSearchParams): Omit<AuditFilters, 'search'> | null {
  const action = sp.get('action');
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(sp.get('day') ?? '');
  if (!action || !AUDIT_ACTIONS.includes(action) || !day) return null;
  const date = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  const category = auditCategoryOf(action);
  const known = AUDIT_CATEGORY_NAMES.find((c) => c === category);
  return { range: { from: date, to: date }, category: known ?? null, action };
}

export function AuditLogsPage() {
  useDocumentTitle(AUDIT_LOG_MSG.title);
  const user = useCurrentUser();
  const retrievals = useArchivedRetrievals(user?.organizationId ?? null);
  const [filters, setFilters] = useState<Omit<AuditFilters, 'search'>>(
    () => filtersFromLink(new URLSearchParams(window.location.search)) ?? initialFilters(),
  );
  // The entry a notification linked to, marked in the table (?entry=<id>).
  const [highlightId] = useState(() => new URLSearchParams(window.location.search).get('entry'));
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText, AUDIT_LOG_LIMITS.searchDebounceMs);
  const [sort, setSort] = useState<AuditSort>(DEFAULT_SORT);
  // Changing the filters, the search or the sort keeps the page the reader is on.
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);

  const query: AuditFilters = { ...filters, search };
  const list = useAuditLogs(query, sort, page);
  const totalPages = list.data?.pagination.totalPages ?? 1;
  // A capped count is a lower bound ("10,000+"): the pages go on past it for as long as pages come back full.
  const capped = list.data?.pagination.totalCountCapped === true;
  const hasNext = capped ? list.data?.logs.length === list.data?.pagination.limit : page < totalPages;
  // A narrower filter can leave the page past the end: go to the last page there is.
  if (list.data && !list.isPlaceholderData && !capped && page > Math.max(1, totalPages)) setPage(Math.max(1, totalPages));

  const exportCsv = async () => {
    setExporting(true);
    try {
      await exportAuditLogs(query, sort);
    } catch (error) {
      if (!isMfaCancelledError(error)) toast.error(AUDIT_LOG_MSG.exportFailed);
    } finally {
      setExporting(false);
    }
  };

  const logs = list.data?.logs ?? [];
  return (
    <div className="grid gap-6">
      <PageHeader
        title={AUDIT_LOG_MSG.title}
        description={
          <>
            {AUDIT_LOG_MSG.subtitle}
            {retrievals.pendingCount > 0 ? <span aria-live="polite"> {AUDIT_LOG_MSG.retrieving(retrievals.pendingCount)}</span> : null}
          </>
        }
        actions={
          <>
            <Button
              variant="outline"
              onClick={() => void list.refetch()}
              loading={list.isFetching && !list.isLoading}
              loadingText="Refreshing..."
            >
              <RefreshCw aria-hidden="true" />
              {AUDIT_LOG_MSG.refresh}
            </Button>
            <Button variant="outline" onClick={() => void exportCsv()} loading={exporting} loadingText="Exporting...">
              <Download aria-hidden="true" />
              {AUDIT_LOG_MSG.exportCsv}
            </Button>
          </>
        }
      />
      {user && shows(user, 'archivalPanel') ? <ArchivalPanel auditLogsKey={auditLogsQueryKey} /> : null}
      <AuditLogFilters
        search={searchText}
        onSearch={setSearchText}
        filters={query}
        onChange={(patch) => setFilters((prev) => ({ ...prev, ...patch }))}
        onClear={() => {
          setFilters(initialFilters());
          setSearchText('');
        }}
      />
      <div className="overflow-hidden rounded-lg border border-border">
        {list.isError && !list.data ? (
          <ErrorState
            title={AUDIT_LOG_MSG.fetchFailed}
            message={errorMessage(list.error, AUDIT_LOG_MSG.fetchFailed)}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        ) : !list.isLoading && logs.length === 0 ? (
          <EmptyState icon={ScrollText} title={AUDIT_LOG_MSG.empty} />
        ) : (
          <AuditLogTable
            logs={logs}
            loading={list.isLoading}
            sort={sort}
            onSort={(field) => setSort((s) => nextSort(s, field))}
            cachedDetails={retrievals.cached}
            pendingIds={retrievals.pendingIds}
            onRetrieve={retrievals.open}
            highlightId={highlightId}
          />
        )}
      </div>
      {totalPages > 1 ? (
        <nav aria-label="Audit log pages" className="flex items-center justify-end gap-3">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))}>
            <ChevronLeft aria-hidden="true" />
            {AUDIT_LOG_MSG.previous}
          </Button>
          <span className="text-sm text-muted-foreground" aria-live="polite">
            {capped ? AUDIT_LOG_MSG.pageOfAtLeast(page, totalPages) : AUDIT_LOG_MSG.pageOf(page, totalPages)}
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={!hasNext}
            onClick={() => setPage((p) => (capped ? p + 1 : Math.min(totalPages, p + 1)))}
          >
            {AUDIT_LOG_MSG.next}
            <ChevronRight aria-hidden="true" />
          </Button>
        </nav>
      ) : null}
      <ArchivedLogDialog state={retrievals.dialog} onStart={() => void retrievals.start()} onClose={retrievals.close} />
    </div>
  );
}
