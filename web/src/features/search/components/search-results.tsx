import { Briefcase, FileSearch, Folder, Lock } from 'lucide-react';
import { DOCUMENT_SEARCH_MSG, SEARCH_MSG, type SearchMatter } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/class-names';
import { fileKind } from '@/lib/file-kind';
import { formatBytes } from '@/lib/format-bytes';
import { pathText, type SearchOption } from '../lib/search-targets';

/** Held and Vaulted labels of a matter, as the matters list shows its restrictions. */
function MatterBadges({ matter }: { matter: SearchMatter }) {
  return (
    <>
      {matter.legalHold ? (
        <Badge tone="danger">
          <Lock aria-hidden="true" />
          Held
        </Badge>
      ) : null}
      {matter.status === 'Vaulted' ? <Badge tone="primary">Vaulted</Badge> : null}
    </>
  );
}

type OptionRowProps = { option: SearchOption; id: string; active: boolean; onPick: (o: SearchOption) => void; onHover: () => void };

const optionClasses = 'flex cursor-pointer items-start gap-2.5 rounded-md px-2.5 py-2 text-sm';

/** The row that takes the words to the search page, to be found inside documents. */
function ContentsRow({ option, id, active, onPick, onHover }: OptionRowProps) {
  if (option.kind !== 'contents') return null;
  return (
    <div
      id={id}
      role="option"
      aria-selected={active}
      // Keeps the focus in the field, so the click lands as a choice and not as a blur.
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => onPick(option)}
      onMouseMove={onHover}
      className={cn(optionClasses, active ? 'bg-accent text-accent-foreground' : 'text-foreground')}
    >
      <FileSearch aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
      <span className="min-w-0 flex-1 truncate">{DOCUMENT_SEARCH_MSG.searchContents(option.q)}</span>
    </div>
  );
}

function OptionRow({ option, id, active, onPick, onHover }: OptionRowProps) {
  if (option.kind === 'contents') return null;
  const isMatter = option.kind === 'matter';
  const look = isMatter
    ? { icon: Briefcase, tone: 'text-primary' }
    : option.node.kind === 'folder'
      ? { icon: Folder, tone: 'text-warning' }
      : fileKind(option.node.name);
  const Icon = look.icon;
  const detail = isMatter
    ? [option.matter.matterNumber, option.matter.clientName].filter(Boolean).join(' · ')
    : option.node.kind === 'file'
      ? `${pathText(option.node)} · ${formatBytes(option.node.size)}`
      : pathText(option.node);
  return (
    <div
      id={id}
      role="option"
      aria-selected={active}
      // Keeps the focus in the field, so the click lands as a choice and not as a blur.
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => onPick(option)}
      onMouseMove={onHover}
      className={cn(optionClasses, active ? 'bg-accent text-accent-foreground' : 'text-foreground', !isMatter && 'pl-6')}
    >
      <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', look.tone)} />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="flex min-w-0 flex-wrap items-center gap-1.5">
          <span className={cn('truncate', isMatter && 'font-semibold')}>{isMatter ? option.matter.matterName : option.node.name}</span>
          {isMatter ? <MatterBadges matter={option.matter} /> : null}
        </span>
        {detail ? <span className="truncate text-xs text-muted-foreground">{detail}</span> : null}
      </span>
    </div>
  );
}

type SearchResultsProps = {
  listId: string;
  options: SearchOption[];
  activeIndex: number;
  optionId: (index: number) => string;
  onPick: (o: SearchOption) => void;
  onHover: (index: number) => void;
};

/** The listbox: a group per matter, the matter first, then its files and folders with their paths. */
export function SearchResults({ listId, options, activeIndex, optionId, onPick, onHover }: SearchResultsProps) {
  const groups: Array<{ matter: SearchMatter; items: Array<{ option: SearchOption; index: number }> }> = [];
  const contentsIndex = options.findIndex((o) => o.kind === 'contents');
  options.forEach((option, index) => {
    if (option.kind === 'contents') return;
    const last = groups[groups.length - 1];
    if (option.kind === 'matter' || !last) groups.push({ matter: option.matter, items: [{ option, index }] });
    else last.items.push({ option, index });
  });
  return (
    // Kept in the page while empty (hidden), so the field's aria-controls always names it.
    <div id={listId} role="listbox" aria-label="Search results" className={cn('grid gap-1 p-1.5', options.length === 0 && 'hidden')}>
      {groups.map((g) => (
        <div key={g.matter.id} role="group" aria-label={g.matter.matterName} className="grid">
          {g.items.map(({ option, index }) => (
            <OptionRow
              key={option.key}
              id={optionId(index)}
              option={option}
              active={index === activeIndex}
              onPick={onPick}
              onHover={() => onHover(index)}
            />
          ))}
        </div>
      ))}
      {contentsIndex >= 0 ? (
        <ContentsRow
          id={optionId(contentsIndex)}
          option={options[contentsIndex]!}
          active={contentsIndex === activeIndex}
          onPick={onPick}
          onHover={() => onHover(contentsIndex)}
        />
      ) : null}
    </div>
  );
}

/** What the popup shows while there is no list to choose from. */
export function SearchStatus({
  state,
  message,
  onRetry,
}: {
  state: 'loading' | 'empty' | 'error';
  message?: string;
  onRetry?: () => void;
}) {
  if (state === 'loading') {
    return (
      <div className="grid gap-2 p-3" aria-busy="true" aria-label="Searching">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-3 w-1/2" />
        <Skeleton className="h-4 w-3/5" />
      </div>
    );
  }
  if (state === 'error') {
    return (
      <div role="alert" className="flex items-center justify-between gap-3 p-3 text-sm">
        <span className="text-danger">{message ?? SEARCH_MSG.failed}</span>
        <Button size="sm" variant="outline" onMouseDown={(e) => e.preventDefault()} onClick={onRetry}>
          Retry
        </Button>
      </div>
    );
  }
  return <p className="p-3 text-sm text-muted-foreground">{SEARCH_MSG.noResults}</p>;
}
