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

/**
 * A regular expression (PostgreSQL's) matching values in which the text starts a part: at the very start, or
 * right after `separator`. Every character of the text that means something to a regular expression is escaped.
 */
export function partStartRegex(text: string, separator: string): string {
  const escaped = text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
  return `(^|${separator})${escaped}`;
}
