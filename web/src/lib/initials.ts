/**
 * The avatar's text: up to two initials of the display name (first and last word), '...' while the user is
 * loading, '?' when there is no usable name.
 */
export function initialsOf(displayName: string | null | undefined, loading = false): string {
  if (loading) return '...';
  const words = (displayName ?? '')
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+/u, ''))
    .filter((w) => w.length > 0);
  if (words.length === 0) return '?';
  const first = Array.from(words[0]!)[0]!;
  const last = words.length > 1 ? Array.from(words[words.length - 1]!)[0]! : '';
  return (first + last).toLocaleUpperCase();
}
