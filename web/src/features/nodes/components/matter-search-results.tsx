import { useSearchParams } from 'react-router';
import { Folder, Search } from 'lucide-react';
import { SEARCH_MSG, type SearchNode } from '@strongroom/contracts';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/class-names';
import { withParams } from '@/lib/search-params';
import { useSearchInMatter } from '../api/search-in-matter';
import { fileKind } from '@/lib/file-kind';

/** The box asks the server once the typing has paused this long. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The folder path shown under a result: Root / Contracts / Signed. */
function pathText(node: Pick<SearchNode, 'path'>): string {
  return ['Root', ...node.path.map((p) => p.name)].join(' / ');
}

function ResultRow({ node, onChoose }: { node: SearchNode; onChoose: (n: SearchNode) => void }) {
  const isFolder = node.kind === 'folder';
  const kind = isFolder ? { icon: Folder, tone: 'text-warning' } : fileKind(node.name);
  const Icon = kind.icon;
  const path = pathText(node);
  return (
    <li>
      <button
        type="button"
        onClick={() => onChoose(node)}
        className="flex w-full min-w-0 items-start gap-2.5 px-4 py-2.5 text-left text-sm hover:bg-muted/60 focus-visible:bg-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
      >
        <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', kind.tone)} />
        <span className="grid min-w-0 flex-1 gap-0.5">
          <span className="truncate font-medium">
            <span className="sr-only">{isFolder ? 'Folder ' : 'File '}</span>
            {node.name}
          </span>
          <span className="truncate text-xs text-muted-foreground" title={path}>
            <span className="sr-only">in </span>
            {path}
          </span>
        </span>
      </button>
    </li>
  );
}

function Searching() {
  return (
    <div className="grid gap-3 px-4 py-3" aria-busy="true" aria-label="Searching">
      {[0, 1, 2].map((i) => (
        <div key={i} className="flex items-start gap-2.5">
          <Skeleton className="size-4 shrink-0" />
          <div className="grid flex-1 gap-1.5">
            <Skeleton className="h-4 w-2/5" />
            <Skeleton className="h-3 w-3/5" />
          </div>
        </div>
      ))}
    </div>
  );
}

type MatterSearchResultsProps = {
  matterId: string;
  /** What the box holds, trimmed (at least SEARCH_LIMITS.queryMin characters). */
  text: string;
  /** The text once the typing has paused (SEARCH_DEBOUNCE_MS): what the server is asked. */
  settled: string;
  /** After a result was chosen (the box is cleared then). */
  onChosen: () => void;
};

/**
 * The files and folders of the matter whose name matches the box, at any depth, each with its path. A folder opens
 * it; a file opens its folder with the file selected (the workspace's folder and file in the address).
 */
export function MatterSearchResults({ matterId, text, settled, onChosen }: MatterSearchResultsProps) {
  const results = useSearchInMatter(matterId, settled);
  const [, setSearchParams] = useSearchParams();

  const choose = (n: SearchNode) => {
    const change = n.kind === 'folder' ? { folder: n.id, file: null } : { folder: n.parentId, file: n.id };
    setSearchParams((prev) => withParams(prev, change));
    onChosen();
  };

  if (results.isError && !results.isFetching) {
    return (
      <ErrorState title={SEARCH_MSG.failed} titleAs="h3" message={errorMessage(results.error)} onRetry={() => void results.refetch()} />
    );
  }
  // Skeleton until the first answer is in; later the previous answer stays, dimmed, until the next one comes.
  if (!results.data) return <Searching />;
  const stale = settled !== text || results.isPlaceholderData;
  const nodes = results.data.groups.flatMap((g) => g.nodes);
  if (nodes.length === 0) {
    return (
      <div role="status" aria-busy={stale} className={cn(stale && 'opacity-60')}>
        <EmptyState icon={Search} title={SEARCH_MSG.inMatterNoResults} titleAs="p" />
      </div>
    );
  }
  return (
    <section aria-label={SEARCH_MSG.inMatterResults(results.data.query)} aria-busy={stale} className={cn(stale && 'opacity-60')}>
      <ul className="divide-y divide-border">
        {nodes.map((n) => (
          <ResultRow key={n.id} node={n} onChoose={choose} />
        ))}
      </ul>
      {results.data.hasMore ? <p className="px-4 py-3 text-xs text-muted-foreground">{SEARCH_MSG.inMatterMore}</p> : null}
    </section>
  );
}
