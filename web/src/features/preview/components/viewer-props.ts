import type { LoadedPreview } from '../api/get-preview-url';

/** What every viewer gets: the file's bytes and link, and where to report a file it cannot show. */
export type ViewerProps = { preview: LoadedPreview; onError: (error: unknown) => void };
