import { AUDIT_ACTION_CATEGORIES, AUDIT_LOG_LIMITS, type AuditActionCategory, type AuditSortField } from '@strongroom/contracts';

/** The page sorts by these two columns only. */
export type AuditPageSortField = Extract<AuditSortField, 'created_at' | 'action'>;
type SortDirection = 'asc' | 'desc';
export type AuditSort = { sortBy: AuditPageSortField; sortDirection: SortDirection };

export const DEFAULT_SORT: AuditSort = { sortBy: 'created_at', sortDirection: 'desc' };

/**
 * A click on a column header: a new column sorts descending first; the active column flips from descending to
 * ascending; any other click (the active column while ascending) goes back to descending.
 */
export function nextSort(current: AuditSort, clicked: AuditPageSortField): AuditSort {
  if (clicked === current.sortBy && current.sortDirection === 'desc') return { sortBy: clicked, sortDirection: 'asc' };
  return { sortBy: clicked, sortDirection: 'desc' };
}

export type DateRange = { from: Date; to: Date | null };

function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

/** The default period: the 30 days ending today (today included). */
export function defaultRange(now: Date = new Date()): DateRange {
  const to = startOfDay(now);
  const from = new Date(to.getFullYear(), to.getMonth(), to.getDate() - (AUDIT_LOG_LIMITS.defaultRangeDays - 1));
  return { from, to };
}

export type AuditFilters = {
  range: DateRange | null;
  category: AuditActionCategory | null;
  action: string | null;
  search: string;
};

export const initialFilters = (now: Date = new Date()): AuditFilters => ({
  range: defaultRange(now),
  category: null,
  action: null,
  search: '',
});

/** The actions a filter asks for: one action, every action of the category, or none (all). */
function actionsOf(filters: Pick<AuditFilters, 'category' | 'action'>): string[] {
  if (filters.action) return [filters.action];
  if (filters.category) return [...AUDIT_ACTION_CATEGORIES[filters.category]];
  return [];
}

/**
 * The query string of the list and of the export: the range covers whole local days (from the first day's
 * start to the last day's end), actions[] repeated.
 */
export function auditQueryString(filters: AuditFilters, sort: AuditSort, extra: Record<string, string | number> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(extra)) qs.set(k, String(v));
  if (filters.range) {
    const from = startOfDay(filters.range.from);
    const last = startOfDay(filters.range.to ?? filters.range.from);
    const end = new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1, 0, 0, 0, -1);
    qs.set('startDate', from.toISOString());
    qs.set('endDate', end.toISOString());
  }
  for (const a of actionsOf(filters)) qs.append('actions[]', a);
  const search = filters.search.trim();
  if (search) qs.set('search', search);
  qs.set('sortBy', sort.sortBy);
  qs.set('sortDirection', sort.sortDirection);
  return qs.toString();
}

export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function formatDay(d: Date): string {
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
