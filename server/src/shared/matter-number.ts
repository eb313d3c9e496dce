/**
 * The matter-number format the server generates: MAT-<year>-<sequence>, the sequence at least three digits
 * (MAT-2026-001) and counting on past 999 (MAT-2026-1000). Every place that makes a number or looks for the
 * generated numbers of a year uses these, so the numbers and the counter that steps past them always agree.
 */
export function formatMatterNumber(year: number, sequence: number): string {
  return `MAT-${year}-${String(sequence).padStart(3, '0')}`;
}

/**
 * How stored numbers of a year are found in SQL (compared upper-cased, as numbers are unique ignoring case): a
 * LIKE prefix that can use an index, and a regular expression whose one group is the sequence.
 */
export function matterNumberYearPatterns(year: number): { like: string; sequence: string } {
  return { like: `MAT-${year}-%`, sequence: `^MAT-${year}-(\\d{1,9})$` };
}
