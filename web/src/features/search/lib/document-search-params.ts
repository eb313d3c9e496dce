import { DOCUMENT_FILE_TYPES, DOCUMENT_SEARCH_LIMITS, type DocumentFileType, type DocumentHit } from '@strongroom/contracts';

/** The search page's query and filters, as its address holds them (?q=&matterId=&fileType=…&page=). */
export type DocumentSearchState = {
  q: string;
  matterId: string;
  clientName: string;
  fileType: DocumentFileType | '';
  uploadedBy: string;
  dateFrom: string;
  dateTo: string;
  allVersions: boolean;
  page: number;
};

/**
 * Reads the address. The names are the server's own (versions=all for every version), so a shared link says what
 * it searches; an unknown file type or a page that is not a whole number is ignored rather than sent.
 */
export function readDocumentSearch(sp: URLSearchParams): DocumentSearchState {
  const fileType = sp.get('fileType') ?? '';
  const page = Number(sp.get('page') ?? '1');
  return {
    q: sp.get('q') ?? '',
    matterId: sp.get('matterId') ?? '',
    clientName: sp.get('clientName') ?? '',
    fileType: (DOCUMENT_FILE_TYPES as readonly string[]).includes(fileType) ? (fileType as DocumentFileType) : '',
    uploadedBy: sp.get('uploadedBy') ?? '',
    dateFrom: sp.get('dateFrom') ?? '',
    dateTo: sp.get('dateTo') ?? '',
    allVersions: sp.get('versions') === 'all',
    page: Number.isInteger(page) && page > 0 ? Math.min(page, DOCUMENT_SEARCH_LIMITS.pageMax) : 1,
  };
}

/** The search call's query string: the set filters only. */
export function searchQueryString(s: DocumentSearchState, limit: number): string {
  const qs = new URLSearchParams({ q: s.q.trim() });
  const set = (key: string, value: string) => value && qs.set(key, value);
  set('matterId', s.matterId);
  set('clientName', s.clientName.trim());
  set('fileType', s.fileType);
  set('uploadedBy', s.uploadedBy);
  set('dateFrom', s.dateFrom);
  set('dateTo', s.dateTo);
  if (s.allVersions) qs.set('versions', 'all');
  qs.set('page', String(s.page));
  qs.set('limit', String(limit));
  return qs.toString();
}

/**
 * Where a hit leads: its matter's workspace at the file's folder (the root when it has none) with the file in the
 * preview, at the page the words were found on when the file has pages.
 */
export function hitHref(hit: Pick<DocumentHit, 'matter' | 'path' | 'nodeId' | 'page'>): string {
  const qs = new URLSearchParams();
  const folder = hit.path.at(-1);
  if (folder) qs.set('folder', folder.id);
  qs.set('preview', hit.nodeId);
  if (hit.page !== null) qs.set('page', String(hit.page));
  return `/matters/${encodeURIComponent(hit.matter.id)}?${qs.toString()}`;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * 'Page 2 of 7 (130 results)'. The count is exact up to DOCUMENT_SEARCH_LIMITS.countMax; beyond, it reads
 * '1,000+' and the pages stop where the server stops serving them.
 */
export function pagingText(page: number, total: number, capped: boolean, limit: number): string {
  const pages = pageCount(total, limit);
  const count = capped ? `${fmt(DOCUMENT_SEARCH_LIMITS.countMax)}+` : fmt(total);
  return `Page ${fmt(page)} of ${fmt(pages)} (${count} ${total === 1 && !capped ? 'result' : 'results'})`;
}

/** How many pages the results fill, within the pages the server serves. */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.min(DOCUMENT_SEARCH_LIMITS.pageMax, Math.ceil(total / limit)));
}
