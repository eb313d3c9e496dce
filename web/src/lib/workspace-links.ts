/** What the matters list hands the workspace it opens: its own query, so the way back keeps its filters. */
export type WorkspaceLocationState = { listSearch?: string; previewPushed?: boolean };

/** The workspace of a matter, at a folder, with a file selected (one found by search). */
export function workspaceHref(matterId: string, opts: { folder?: string | null; file?: string | null } = {}): string {
  const qs = new URLSearchParams();
  if (opts.folder) qs.set('folder', opts.folder);
  if (opts.file) qs.set('file', opts.file);
  const query = qs.toString();
  return `/matters/${encodeURIComponent(matterId)}${query ? `?${query}` : ''}`;
}

/** The matters list as it was when the workspace was opened from it, or the plain list. */
export function backToListHref(state: WorkspaceLocationState | null): string {
  const search = state?.listSearch;
  return search && search.startsWith('?') ? `/matters${search}` : '/matters';
}
