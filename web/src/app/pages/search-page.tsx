import { useRef } from 'react';
import { useSearchParams } from 'react-router';
import { ChevronLeft, ChevronRight, FileSearch } from 'lucide-react';
import { DOCUMENT_SEARCH_LIMITS, DOCUMENT_SEARCH_MSG, type DocumentHit } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage, isApiError } from '@/lib/api-error';
import { useDocumentTitle } from '@/lib/document-title';
import { withParams } from '@/lib/search-params';
import { shows } from '@/lib/access-visibility';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { useDocumentSearch } from '@/features/search/api/search-documents';
import { DocumentHits, DocumentHitsLoading } from '@/features/search/components/document-hits';
import { DocumentSearchFilters } from '@/features/search/components/document-search-filters';
import { pageCount, pagingText, readDocumentSearch, type DocumentSearchState } from '@/features/search/lib/document-search-params';

const PAGE_SIZE = DOCUMENT_SEARCH_LIMITS.limitDefault;
/** The sticky top bar's height: what lies under it is out of sight. */
const TOP_BAR_PX = 64;

/** The address's form of a change of the filters: the server's names, blanks removed, back to the first page. */
function toParams(change: Partial<Omit<DocumentSearchState, 'page'>>): Record<string, string | null> {
  const out: Record<string, string | null> = { page: null };
  for (const [k, v] of Object.entries(change)) {
    if (k === 'allVersions') out.versions = v ? 'all' : null;
    else out[k] = typeof v === 'string' ? v : null;
  }
  return out;
}

/** The chosen matter's name and number, read from a hit of it. */
function matterLabel(hits: DocumentHit[], matterId: string): string | undefined {
  const m = hits.find((h) => h.matter.id === matterId)?.matter;
  return m ? (m.matterNumber ? `${m.matterName} · ${m.matterNumber}` : m.matterName) : undefined;
}

/**
 * /search: the text and names of documents across the matters the viewer may see. The query, the filters and the
 * page live in the address, so a reload, Back and a shared link show the same search.
 */
export function SearchPage() {
  useDocumentTitle(DOCUMENT_SEARCH_MSG.pageTitle);
  const user = useCurrentUser();
  const [sp, setSp] = useSearchParams();
  const state = readDocumentSearch(sp);
  const results = useDocumentSearch(state, PAGE_SIZE);
  const listTop = useRef<HTMLDivElement>(null);

  // A new search is a step of history (Back returns to the one before); a filter or a page replaces it.
  const change = (c: Parameters<typeof toParams>[0]) => setSp((prev) => withParams(prev, toParams(c)), { replace: !('q' in c) });
  const goToPage = (n: number) => {
    setSp((prev) => withParams(prev, { page: n > 1 ? String(n) : null }));
    const el = listTop.current;
    if (el && el.getBoundingClientRect().top < TOP_BAR_PX) el.scrollIntoView({ block: 'start' });
  };

  const data = results.data;
  const pages = data ? pageCount(data.total, PAGE_SIZE) : 1;
  let body;
  if (!state.q.trim()) {
    body = <EmptyState icon={FileSearch} title={DOCUMENT_SEARCH_MSG.pageTitle} description={DOCUMENT_SEARCH_MSG.help} />;
  } else if (results.isError) {
    body = (
      <ErrorState
        title={DOCUMENT_SEARCH_MSG.failed}
        message={errorMessage(results.error, DOCUMENT_SEARCH_MSG.failed)}
        // A refused query (400) is refused again: it is changed, not retried.
        onRetry={isApiError(results.error) && results.error.status === 400 ? undefined : () => void results.refetch()}
        retrying={results.isFetching}
      />
    );
  } else if (!data || (results.isFetching && results.isPlaceholderData)) {
    body = <DocumentHitsLoading />;
  } else if (data.hits.length === 0) {
    body = <EmptyState icon={FileSearch} title={DOCUMENT_SEARCH_MSG.noResults} />;
  } else {
    body = <DocumentHits hits={data.hits} />;
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title={DOCUMENT_SEARCH_MSG.pageTitle}
        description="Find documents by the words inside them, in every matter you can open."
      />
      <DocumentSearchFilters
        value={state}
        onChange={change}
        canListTeam={user ? shows(user, 'teamTab') : false}
        matterLabel={matterLabel(data?.hits ?? [], state.matterId)}
      />
      <div ref={listTop} className="grid scroll-mt-20 gap-3">
        <div className="overflow-hidden rounded-lg border border-border bg-card">{body}</div>
        {data && state.q.trim() && !results.isError && data.hits.length > 0 ? (
          <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
            <p aria-live="polite" className="tabular-nums">
              {pagingText(data.page, data.total, data.totalCapped, PAGE_SIZE)}
            </p>
            <div className="flex items-center gap-2">
              <Button variant="outline" size="sm" disabled={state.page <= 1} onClick={() => goToPage(state.page - 1)}>
                <ChevronLeft aria-hidden="true" />
                Previous
              </Button>
              <Button variant="outline" size="sm" disabled={state.page >= pages} onClick={() => goToPage(state.page + 1)}>
                Next
                <ChevronRight aria-hidden="true" />
              </Button>
            </div>
          </nav>
        ) : null}
      </div>
    </div>
  );
}
