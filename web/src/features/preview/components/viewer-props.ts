import type { LoadedPreview } from '../api/get-preview-url';

/**
 * What every viewer gets: the file's bytes and link, where to report a file it cannot show, and the page to open
 * at (a PDF brings it into view; viewers without pages ignore it).
 */
export type ViewerProps = { preview: LoadedPreview; onError: (error: unknown) => void; page?: number | null };
