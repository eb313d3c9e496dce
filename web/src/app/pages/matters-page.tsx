import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { MATTER_MSG, MATTER_SORT_FIELDS, type MatterSortField } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { useDocumentTitle } from '@/lib/document-title';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { useMatters, type MatterListParams } from '@/features/matters/api/get-matters';
import { CreateMatterDialog } from '@/features/matters/components/create-matter-dialog';
import { MatterFilters, type MatterFilterValues } from '@/features/matters/components/matter-filters';
import { MatterCards } from '@/features/matters/components/matter-cards';
import { MattersTable } from '@/features/matters/components/matters-table';
import { workspaceHref, type WorkspaceLocationState } from '@/lib/workspace-links';
import { DensityToggle } from '@/components/ui/density-toggle';
import { useTableDensity } from '@/lib/table-density';
import { PHONE_QUERY, useMediaQuery } from '@/lib/use-media-query';
import { shows } from '@/lib/access-visibility';
import { withParams } from '@/lib/search-params';

const PAGE_SIZE = 50;
/** The sticky top bar's height: what lies under it is out of sight. */
const TOP_BAR_PX = 64;

/**
 * Filters, sort and page live in the query string, so a reload keeps them. The search text is
 * `q`, the parameter the top bar's search box sends, so searching from anywhere lands on a filtered list.
 */
function readParams(sp: URLSearchParams) {
  const status = sp.get('status');
  const sortBy = sp.get('sortBy') as MatterSortField | null;
  const page = Number(sp.get('page') ?? '1');
  return {
    filters: {
      // Older links say ?search=; they keep working and are rewritten as q on the next change of a filter.
      search: sp.get('q') ?? sp.get('search') ?? '',
      status: status === 'Open' || status === 'Vaulted' ? status : 'All',
      clientName: sp.get('client') ?? '',
      // A picked suggestion (clientExact=1) matches the whole name; typed text matches anywhere in it.
      clientNameExact: sp.get('clientExact') === '1',
      responsibleLawyer: sp.get('lawyer') ?? '',
      responsibleLawyerExact: sp.get('lawyerExact') === '1',
      dateFrom: sp.get('from') ?? '',
      dateTo: sp.get('to') ?? '',
    } satisfies MatterFilterValues,
    sortBy: sortBy && (MATTER_SORT_FIELDS as readonly string[]).includes(sortBy) ? sortBy : 'created_at',
    sortDirection: sp.get('dir') === 'asc' ? 'asc' : 'desc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  } as const;
}

/**
 * Matters used to open over this list (?matter=<id>&folder=..&file=..); such links, saved or in old e-mails, now
 * lead to the matter's own page, replacing the old address in history.
 */
export function MattersPage() {
  const [sp] = useSearchParams();
  const matterId = sp.get('matter');
  if (matterId) return <Navigate replace to={workspaceHref(matterId, { folder: sp.get('folder'), file: sp.get('file') })} />;
  return <MattersList />;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** "Showing 1–50 of 300 matters"; a count that stopped at its bound reads "of 10,000+". */
function showingText(first: number, last: number, total: number, capped: boolean): string {
  if (first === 0) return 'No matters on this page';
  return `Showing ${fmt(first)}–${fmt(last)} of ${fmt(total)}${capped ? '+' : ''} matters`;
}

function MattersList() {
  useDocumentTitle('Matters');
  const location = useLocation();
  const navigate = useNavigate();
  // The workspace's way back returns to this list as it is now: its filters, sort and page.
  const openState: WorkspaceLocationState = { listSearch: location.search };
  const user = useCurrentUser();
  const [sp, setSp] = useSearchParams();
  const state = readParams(sp);
  const [createOpen, setCreateOpen] = useState(false);
  const [density, setDensity] = useTableDensity(user?.id);
  const phone = useMediaQuery(PHONE_QUERY);

  const update = (change: Record<string, string | null>) => setSp((prev) => withParams(prev, change), { replace: true });

  // The list's query key is compared by value, so a fresh object each render asks for nothing new.
  const params: MatterListParams = {
    search: state.filters.search || undefined,
    status: state.filters.status === 'All' ? undefined : state.filters.status,
    clientName: state.filters.clientName || undefined,
    clientNameExact: (state.filters.clientName && state.filters.clientNameExact) || undefined,
    responsibleLawyer: state.filters.responsibleLawyer || undefined,
    responsibleLawyerExact: (state.filters.responsibleLawyer && state.filters.responsibleLawyerExact) || undefined,
    dateFrom: state.filters.dateFrom || undefined,
    dateTo: state.filters.dateTo || undefined,
    sortBy: state.sortBy,
    sortDirection: state.sortDirection,
    page: state.page,
    pageSize: PAGE_SIZE,
  };
  const list = useMatters(params);
  const total = list.data?.totalCount ?? 0;
  // A capped count is a lower bound ("10,000+"): the pages go on past it for as long as pages come back full.
  const capped = list.data?.totalCountCapped === true;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // A page beyond the last one (an old link, ?page=99, matters removed meanwhile) shows the last page.
  const page = capped ? state.page : Math.min(state.page, pages);
  const shown = list.data?.matters.length ?? 0;
  const first = (capped ? shown : total) === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = capped ? (page - 1) * PAGE_SIZE + shown : Math.min(total, page * PAGE_SIZE);
  const hasNext = capped ? shown === PAGE_SIZE : page < pages;
  const beyondLast = list.isSuccess && !list.isPlaceholderData && !capped && state.page > pages;
  useEffect(() => {
    if (beyondLast) setSp((prev) => withParams(prev, { page: pages > 1 ? String(pages) : null }), { replace: true });
  }, [beyondLast, pages, setSp]);

  // Paging brings the top of the list into view when it has scrolled out of sight (under the top bar).
  const listTop = useRef<HTMLDivElement>(null);
  const goToPage = (n: number) => {
    update({ page: n > 1 ? String(n) : null });
    const el = listTop.current;
    if (el && el.getBoundingClientRect().top < TOP_BAR_PX) el.scrollIntoView({ block: 'start' });
  };

  const setFilters = (f: MatterFilterValues) =>
    update({
      q: f.search,
      search: null,
      status: f.status === 'All' ? null : f.status,
      client: f.clientName,
      clientExact: f.clientName && f.clientNameExact ? '1' : null,
      lawyer: f.responsibleLawyer,
      lawyerExact: f.responsibleLawyer && f.responsibleLawyerExact ? '1' : null,
      from: f.dateFrom,
      to: f.dateTo,
      page: null,
    });
  const sort = (field: MatterSortField) =>
    update({
      sortBy: field,
      dir:
        state.sortBy === field && state.sortDirection === 'asc'
          ? 'desc'
          : field === 'created_at' && state.sortBy !== field
            ? 'desc'
            : 'asc',
      page: null,
    });

  const matters = list.data?.matters ?? [];
  // A card on phones opens its matter exactly as a row does on wider screens.
  const open = (m: { id: string }) => void navigate(workspaceHref(m.id), { state: openState });

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Matters"
        description="Every case your firm keeps, with its folders and files."
        actions={
          user && shows(user, 'newMatter') ? (
            <Button onClick={() => setCreateOpen(true)}>
              <Plus aria-hidden="true" />
              New Matter
            </Button>
          ) : null
        }
      />
      <MatterFilters value={state.filters} onChange={setFilters} />
      {list.isError && !list.data ? (
        <ErrorState
          title={MATTER_MSG.fetchListFailed}
          message={`Error loading matters: ${errorMessage(list.error)}`}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
          className="rounded-lg border border-border"
        />
      ) : (
        <div ref={listTop} className="grid scroll-mt-20 gap-3">
          <DensityToggle value={density} onChange={setDensity} className="justify-self-end" />
          {phone ? (
            <MatterCards matters={matters} loading={list.isFetching} density={density} onOpen={open} />
          ) : (
            <MattersTable
              matters={matters}
              loading={list.isFetching}
              sortBy={state.sortBy}
              sortDirection={state.sortDirection}
              onSort={sort}
              linkState={openState}
              onOpen={open}
              density={density}
            />
          )}
          <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
            <p aria-live="polite">
              {list.data ? (total === 0 ? 'No matters' : showingText(first, last, capped ? Math.max(total, last) : total, capped)) : ''}
            </p>
            <nav aria-label="Pagination" className="flex items-center gap-2">
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => goToPage(page - 1)}>
                <ChevronLeft aria-hidden="true" />
                Previous
              </Button>
              <span className="tabular-nums">
                {capped ? `Page ${fmt(page)} of ${fmt(Math.max(page, pages))}+` : `Page ${fmt(page)} of ${fmt(pages)}`}
              </span>
              <Button variant="outline" size="sm" disabled={!hasNext} onClick={() => goToPage(page + 1)}>
                Next
                <ChevronRight aria-hidden="true" />
              </Button>
            </nav>
          </div>
        </div>
      )}
      {user && shows(user, 'newMatter') ? <CreateMatterDialog open={createOpen} onOpenChange={setCreateOpen} /> : null}
    </div>
  );
}
