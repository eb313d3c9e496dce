import { Link } from 'react-router';
import { Folder, User } from 'lucide-react';
import type { DocumentHit, SnippetPart } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/class-names';
import { fileKind } from '@/lib/file-kind';
import { hitHref } from '../lib/document-search-params';

function formatDay(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/**
 * Where the words occur, the matched ones marked. A document's text is whatever its author wrote, markup
 * included: every part is rendered as text, never as HTML.
 */
function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <p className="line-clamp-3 text-sm break-words text-muted-foreground">
      {parts.map((p, i) =>
        p.match ? (
          <mark key={i} className="rounded-sm bg-warning/20 px-0.5 font-medium text-foreground">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </p>
  );
}

function HitRow({ hit }: { hit: DocumentHit }) {
  const kind = fileKind(hit.name);
  const Icon = kind.icon;
  const matter = [hit.matter.matterName, hit.matter.matterNumber].filter(Boolean).join(' · ');
  const folder = ['Root', ...hit.path.map((p) => p.name)].join(' / ');
  return (
    <li>
      <Link
        to={hitHref(hit)}
        className="grid gap-1.5 px-4 py-3 transition-colors hover:bg-muted/50 focus-visible:bg-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
      >
        <span className="flex min-w-0 items-center gap-2">
          <Icon aria-hidden="true" className={cn('size-4 shrink-0', kind.tone)} />
          <span className="min-w-0 truncate font-medium text-link" title={hit.name}>
            {hit.name}
          </span>
          {hit.current ? null : (
            <Badge tone="outline" className="shrink-0">
              Version {hit.versionNumber}
            </Badge>
          )}
        </span>
        <span className="text-xs text-muted-foreground">
          {matter}
          {hit.matter.clientName ? ` · ${hit.matter.clientName}` : ''}
        </span>
        {hit.snippet.length > 0 ? <Snippet parts={hit.snippet} /> : null}
        <span className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <span className="inline-flex min-w-0 items-center gap-1">
            <Folder aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="sr-only">Folder: </span>
            <span className="truncate">{folder}</span>
          </span>
          <span className="inline-flex items-center gap-1">
            <User aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="sr-only">Uploaded by </span>
            {hit.uploadedBy?.name ?? '—'} · {formatDay(hit.uploadedAt)}
          </span>
        </span>
      </Link>
    </li>
  );
}

/** The hits of one page, best first, each a link that opens the file in its matter. */
export function DocumentHits({ hits }: { hits: DocumentHit[] }) {
  return (
    <ul aria-label="Search results" className="divide-y divide-border">
      {hits.map((h) => (
        <HitRow key={`${h.nodeId}-${h.versionNumber}`} hit={h} />
      ))}
    </ul>
  );
}

/** Placeholder rows while the first answer is on its way. */
export function DocumentHitsLoading() {
  return (
    <div aria-busy="true" aria-label="Searching" className="divide-y divide-border">
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="grid gap-2 px-4 py-3">
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-3 w-1/4" />
          <Skeleton className="h-3 w-full" />
          <Skeleton className="h-3 w-2/3" />
        </div>
      ))}
    </div>
  );
}
