/**
 * LIKE and ILIKE patterns built from what a user typed. The pattern characters (`\`, `%`, `_`) in the text are
 * escaped, so that a search for "10%" or "a_b" finds those characters rather than matching anything.
 */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Matches values that contain the text. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** Matches values that start with the text. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}
