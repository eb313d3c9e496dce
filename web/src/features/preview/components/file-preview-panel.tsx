import { lazy, Suspense, useCallback, useState, type ComponentType } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Download, FileQuestion, X } from 'lucide-react';
import { PREVIEW_MSG, previewKindOf, type PreviewKind } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/error-state';
import { errorMessage } from '@/lib/api-error';
import { downloadFile } from '@/lib/download-file';
import { loadPreview } from '../api/get-preview-url';
import { PREVIEW_MAX_LABEL, tooLargeToPreview } from '../lib/limits';
import { FileFacts, type PreviewNode } from './file-facts';
import { PreviewErrorBoundary } from './preview-error-boundary';
import { PreviewLoading } from './preview-loading';
import type { ViewerProps } from './viewer-props';

// Each viewer (and pdf.js, mammoth, postal-mime, papaparse, DOMPurify with it) loads only when a file needs it.
const VIEWERS: Record<Exclude<PreviewKind, 'none'>, ComponentType<ViewerProps>> = {
  pdf: lazy(() => import('./pdf-viewer')),
  image: lazy(() => import('./image-viewer')),
  text: lazy(() => import('./text-viewer')),
  csv: lazy(() => import('./csv-viewer')),
  email: lazy(() => import('./email-viewer')),
  word: lazy(() => import('./word-viewer')),
};

const previewQueryKey = (nodeId: string, version?: number) => ['nodes', 'preview', nodeId, version ?? 'current'] as const;

export type FilePreviewPanelProps = {
  node: PreviewNode;
  matter: { id: string; matterName: string };
  /** Where the file is in the matter, as shown to the reader. */
  path: string;
  /** Whether the reader may download the file (a guest with a view grant may read it here but not download it). */
  canDownload: boolean;
  onClose: () => void;
  /**
   * An earlier version shown in place of the current one (node then carries that version's facts), and the way
   * back to the current one.
   */
  version?: { versionNumber: number; onShowCurrent: () => void };
  /** The page to open at (a PDF's, from a search hit); other viewers ignore it. */
  page?: number | null;
};

/** Nothing to render: the reason (the header's Download stays, for those who may have the file). */
function NoPreview({ message }: { message: string }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-md border border-dashed border-border px-4 py-10 text-center">
      <FileQuestion aria-hidden="true" className="size-8 text-muted-foreground" />
      <p className="text-sm text-muted-foreground">{message}</p>
    </div>
  );
}

/**
 * A file's preview with its facts: a header with the name and Close, the file shown in the page (PDF, image,
 * text, CSV, email, Word), and who added it, when, its size, its sha256 in full and its path, with Download for
 * those who may download it.
 */
export function FilePreviewPanel({ node, matter, path, canDownload, onClose, version, page }: FilePreviewPanelProps) {
  const kind = previewKindOf(node.name, node.mimeType);
  const tooLarge = tooLargeToPreview(kind, node.fileSize);
  const shows = kind !== 'none' && !tooLarge;
  const preview = useQuery({
    queryKey: previewQueryKey(node.id, version?.versionNumber),
    queryFn: ({ signal }) => loadPreview(node.id, signal, version?.versionNumber),
    enabled: shows,
    retry: false,
    // The bytes are held only while the panel shows them, and fetched again (a new link) when it opens again.
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const [viewError, setViewError] = useState<unknown>(null);
  const onViewError = useCallback((error: unknown) => setViewError(error), []);
  const [attempt, setAttempt] = useState(0);
  const retry = () => {
    setViewError(null);
    setAttempt((n) => n + 1);
    void preview.refetch();
  };
  const onDownload = () => void downloadFile(node, version?.versionNumber);

  const error = preview.error ?? viewError;
  const Viewer = preview.data && preview.data.previewKind !== 'none' ? VIEWERS[preview.data.previewKind] : null;
  let body;
  if (kind === 'none' || preview.data?.previewKind === 'none') {
    body = <NoPreview message={PREVIEW_MSG.noPreview} />;
  } else if (tooLarge) {
    body = <NoPreview message={PREVIEW_MSG.tooLarge(PREVIEW_MAX_LABEL)} />;
  } else if (error) {
    body = (
      <ErrorState title={PREVIEW_MSG.failed} titleAs="h3" message={errorMessage(error)} onRetry={retry} retrying={preview.isFetching} />
    );
  } else if (!preview.data || !Viewer || preview.isFetching) {
    body = <PreviewLoading />;
  } else {
    body = (
      <PreviewErrorBoundary key={attempt} onError={onViewError}>
        <Suspense fallback={<PreviewLoading />}>
          <Viewer preview={preview.data} onError={onViewError} page={page} />
        </Suspense>
      </PreviewErrorBoundary>
    );
  }

  return (
    <section aria-label={`Preview of ${node.name}`} className="flex h-full min-h-0 flex-col bg-card text-card-foreground">
      <header className="flex items-center gap-2 border-b border-border px-4 py-3">
        <h2 className="min-w-0 flex-1 truncate text-base font-semibold" title={node.name}>
          {node.name}
        </h2>
        {canDownload ? (
          <Button variant="outline" size="sm" onClick={onDownload}>
            <Download aria-hidden="true" />
            Download
          </Button>
        ) : null}
        <Button variant="ghost" size="icon-sm" aria-label="Close preview" onClick={onClose}>
          <X aria-hidden="true" />
        </Button>
      </header>
      <div className="grid min-h-0 flex-1 content-start gap-5 overflow-auto p-4">
        {version ? (
          <div
            role="status"
            className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border bg-muted/40 px-3 py-2 text-sm"
          >
            <span>Version {version.versionNumber}: an earlier version, not the current one.</span>
            <Button variant="outline" size="sm" onClick={version.onShowCurrent}>
              Show current version
            </Button>
          </div>
        ) : null}
        {body}
        <FileFacts node={node} matterName={matter.matterName} path={path} />
      </div>
    </section>
  );
}
