import type { PreviewKind } from '@strongroom/contracts';

/** Text, CSV, email and Word files are read whole in the browser to be shown; past this they are not previewed. */
const PREVIEW_MAX_BYTES = 50 * 1024 * 1024;
export const PREVIEW_MAX_LABEL = '50 MB';
/** Plain text shows its first megabyte. */
export const TEXT_PREVIEW_BYTES = 1024 * 1024;
/** CSV shows its first rows as a table. */
export const CSV_PREVIEW_ROWS = 500;

const READ_WHOLE: ReadonlySet<PreviewKind> = new Set(['text', 'csv', 'email', 'word']);

/** Whether a file of this kind and size is too large to preview in the page. */
export function tooLargeToPreview(kind: PreviewKind, size: number | null): boolean {
  return READ_WHOLE.has(kind) && size !== null && size > PREVIEW_MAX_BYTES;
}
