import { useId, useState, type FormEvent } from 'react';
import { Search, SlidersHorizontal, X } from 'lucide-react';
import { DOCUMENT_FILE_TYPE_LABELS, DOCUMENT_FILE_TYPES, DOCUMENT_SEARCH_MSG } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/class-names';
import { useUploaderChoices } from '../api/search-documents';
import type { DocumentSearchState } from '../lib/document-search-params';
import { MatterPicker } from './matter-picker';

/** Radix's select has no empty value: this one stands for 'any'. */
const ANY = 'any';

type Change = Partial<Omit<DocumentSearchState, 'page'>>;

type DocumentSearchFiltersProps = {
  value: DocumentSearchState;
  onChange: (change: Change) => void;
  /** Whether the viewer may read the team list (the uploader filter needs it). */
  canListTeam: boolean;
  /** The chosen matter's name, when the page knows it from its hits. */
  matterLabel?: string;
};

type FiltersToggleProps = { open: boolean; count: number; controls: string; onToggle: () => void };

/** The phone's button that shows or hides the filters, with how many are set. */
function FiltersToggle({ open, count, controls, onToggle }: FiltersToggleProps) {
  return (
    <Button
      type="button"
      variant="outline"
      size="icon"
      className="relative shrink-0 md:hidden"
      aria-label="Filters"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <SlidersHorizontal aria-hidden="true" />
      {count > 0 ? (
        <Badge tone="primary" className="absolute -top-2 -right-2 px-1.5">
          {count}
          <span className="sr-only"> active</span>
        </Badge>
      ) : null}
    </Button>
  );
}

/**
 * The query and its filters. The words and the client name are sent with Search (Enter); the selects, the dates
 * and the versions box apply at once. The fields follow the address, so Back shows what was searched.
 */
export function DocumentSearchFilters({ value, onChange, canListTeam, matterLabel }: DocumentSearchFiltersProps) {
  const ids = useId();
  const uploaders = useUploaderChoices(canListTeam);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    onChange({ q: String(form.get('q') ?? '').trim(), clientName: String(form.get('clientName') ?? '').trim() });
  };
  const count = [
    value.matterId,
    value.clientName,
    value.fileType,
    value.uploadedBy,
    value.dateFrom,
    value.dateTo,
    value.allVersions,
  ].filter(Boolean).length;
  // On phones the filters fold away below the words until asked for (open at once when some are set).
  const [open, setOpen] = useState(count > 0);

  return (
    <form
      role="search"
      aria-label={DOCUMENT_SEARCH_MSG.pageTitle}
      onSubmit={submit}
      // A new address (Back, Clear, a link) starts the typed fields again from it.
      key={`${value.q}\u0000${value.clientName}`}
      className="grid gap-3 rounded-lg border border-border bg-card p-4 shadow-xs"
    >
      <div className="grid gap-2">
        <Label htmlFor={`${ids}-q`}>{DOCUMENT_SEARCH_MSG.label}</Label>
        <div className="flex gap-2">
          <div className="relative min-w-0 flex-1">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id={`${ids}-q`}
              name="q"
              type="search"
              className="pl-9"
              placeholder={DOCUMENT_SEARCH_MSG.placeholder}
              defaultValue={value.q}
              aria-describedby={`${ids}-help`}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <Button type="submit">Search</Button>
          <FiltersToggle open={open} count={count} controls={`${ids}-filters`} onToggle={() => setOpen(!open)} />
        </div>
        <p id={`${ids}-help`} className="text-xs text-muted-foreground">
          {DOCUMENT_SEARCH_MSG.help}
        </p>
      </div>
      <div id={`${ids}-filters`} className={cn('items-end gap-3 sm:grid-cols-2 md:grid lg:grid-cols-4', open ? 'grid' : 'hidden')}>
        <MatterPicker matterId={value.matterId} knownLabel={matterLabel} onChange={(matterId) => onChange({ matterId })} />
        <Input name="clientName" aria-label="Client name" placeholder="Client name" defaultValue={value.clientName} autoComplete="off" />
        <Select value={value.fileType || ANY} onValueChange={(v) => onChange({ fileType: v === ANY ? '' : (v as Change['fileType']) })}>
          <SelectTrigger aria-label="File type">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY}>All file types</SelectItem>
            {DOCUMENT_FILE_TYPES.map((t) => (
              <SelectItem key={t} value={t}>
                {DOCUMENT_FILE_TYPE_LABELS[t]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {canListTeam && !uploaders.isError ? (
          <Select value={value.uploadedBy || ANY} onValueChange={(v) => onChange({ uploadedBy: v === ANY ? '' : v })}>
            <SelectTrigger aria-label="Uploaded by">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Anyone</SelectItem>
              {(uploaders.data ?? []).map((u) => (
                <SelectItem key={u.id} value={u.id}>
                  {u.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        ) : null}
        <div className="flex items-center gap-2">
          <Label htmlFor={`${ids}-from`} className="w-10 shrink-0 text-muted-foreground">
            From
          </Label>
          <Input
            id={`${ids}-from`}
            type="date"
            value={value.dateFrom}
            max={value.dateTo || undefined}
            onChange={(e) => onChange({ dateFrom: e.target.value })}
          />
        </div>
        <div className="flex items-center gap-2">
          <Label htmlFor={`${ids}-to`} className="w-10 shrink-0 text-muted-foreground">
            To
          </Label>
          <Input
            id={`${ids}-to`}
            type="date"
            value={value.dateTo}
            min={value.dateFrom || undefined}
            onChange={(e) => onChange({ dateTo: e.target.value })}
          />
        </div>
        <label className="flex h-10 items-center gap-2 text-sm text-foreground">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={value.allVersions}
            onChange={(e) => onChange({ allVersions: e.target.checked })}
          />
          {DOCUMENT_SEARCH_MSG.allVersions}
        </label>
        <Button
          type="button"
          variant="ghost"
          className="justify-self-start"
          disabled={count === 0}
          onClick={() =>
            onChange({ matterId: '', clientName: '', fileType: '', uploadedBy: '', dateFrom: '', dateTo: '', allVersions: false })
          }
        >
          <X aria-hidden="true" />
          Clear filters
        </Button>
      </div>
    </form>
  );
}
