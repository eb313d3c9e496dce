/** The address's query with `change` applied: a value sets its key, null or '' removes it. */
export function withParams(prev: URLSearchParams, change: Record<string, string | null>): URLSearchParams {
  const next = new URLSearchParams(prev);
  for (const [k, v] of Object.entries(change)) {
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
  }
  return next;
}
