import { useEffect, useEffectEvent, useId, useState } from 'react';
import { Search, SlidersHorizontal, X } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/class-names';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { PartyAutocomplete } from './party-autocomplete';

export type MatterFilterValues = {
  search: string;
  status: 'All' | 'Open' | 'Vaulted';
  clientName: string;
  /** The client name is a picked suggestion (matched whole), not typed text (matched anywhere in the name). */
  clientNameExact: boolean;
  responsibleLawyer: string;
  /** The lawyer is a picked suggestion (matched whole), not typed text (matched anywhere in the name). */
  responsibleLawyerExact: boolean;
  dateFrom: string;
  dateTo: string;
};

export const EMPTY_FILTERS: MatterFilterValues = {
  search: '',
  status: 'All',
  clientName: '',
  clientNameExact: false,
  responsibleLawyer: '',
  responsibleLawyerExact: false,
  dateFrom: '',
  dateTo: '',
};
const SEARCH_DEBOUNCE_MS = 400;

/** A client or lawyer filter as typed: the text, and whether it was picked from the suggestions. */
type PartyText = { text: string; exact: boolean };
const sameParty = (a: PartyText, text: string, exact: boolean) => a.text === text && a.exact === exact;
const sameText = (a: PartyText, b: PartyText) => a.text === b.text && a.exact === b.exact;
/** The typed filters of a set of filters: the search and the two party fields. */
const typedOf = (v: MatterFilterValues) => ({
  search: v.search,
  client: { text: v.clientName, exact: v.clientNameExact },
  lawyer: { text: v.responsibleLawyer, exact: v.responsibleLawyerExact },
});

type MatterFiltersProps = { value: MatterFilterValues; onChange: (next: MatterFilterValues) => void };

/** How many filters besides the search are set: the count the phone's Filters button shows. */
export function activeFilterCount(v: Pick<MatterFilterValues, 'status' | 'clientName' | 'responsibleLawyer' | 'dateFrom' | 'dateTo'>) {
  return [v.status !== 'All', v.clientName, v.responsibleLawyer, v.dateFrom, v.dateTo].filter(Boolean).length;
}

/**
 * Search (debounced), status, client, lawyer and a date range; Clear All empties them. On phones only the search
 * shows at first; a Filters button (with how many are set) opens the others below it.
 */
export function MatterFilters({ value, onChange }: MatterFiltersProps) {
  const [search, setSearch] = useState(value.search);
  const [client, setClient] = useState<PartyText>({ text: value.clientName, exact: value.clientNameExact });
  const [lawyer, setLawyer] = useState<PartyText>({ text: value.responsibleLawyer, exact: value.responsibleLawyerExact });
  const debouncedSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const debouncedClient = useDebouncedValue(client, SEARCH_DEBOUNCE_MS);
  const debouncedLawyer = useDebouncedValue(lawyer, SEARCH_DEBOUNCE_MS);

  // Typing is reported once it settles, and only then: a change from outside (Clear All, Back) must not send the
  // settled text of before straight back, so the current filters are read without being a reason to report.
  const reportSettled = useEffectEvent((search: string, client: PartyText, lawyer: PartyText) => {
    if (
      search !== value.search ||
      !sameParty(client, value.clientName, value.clientNameExact) ||
      !sameParty(lawyer, value.responsibleLawyer, value.responsibleLawyerExact)
    ) {
      onChange({
        ...value,
        search,
        clientName: client.text,
        clientNameExact: client.exact,
        responsibleLawyer: lawyer.text,
        responsibleLawyerExact: lawyer.exact,
      });
    }
  });
  useEffect(() => {
    reportSettled(debouncedSearch, debouncedClient, debouncedLawyer);
  }, [debouncedSearch, debouncedClient, debouncedLawyer]);

  // The URL changed from outside (Clear All, back button): follow it. When it changed to the settled text this form
  // reported, the typing since (a busy machine renders late) is kept rather than set back to that text.
  const [followed, setFollowed] = useState(value);
  const was = typedOf(followed);
  const now = typedOf(value);
  const moved = { search: was.search !== now.search, client: !sameText(was.client, now.client), lawyer: !sameText(was.lawyer, now.lawyer) };
  if (moved.search || moved.client || moved.lawyer) {
    setFollowed(value);
    const ownReport = debouncedSearch === now.search && sameText(debouncedClient, now.client) && sameText(debouncedLawyer, now.lawyer);
    if (!ownReport) {
      if (moved.search) setSearch(now.search);
      if (moved.client) setClient(now.client);
      if (moved.lawyer) setLawyer(now.lawyer);
    }
  }

  const active = search || client.text || lawyer.text || value.status !== 'All' || value.dateFrom || value.dateTo;
  const count = activeFilterCount({ ...value, clientName: client.text, responsibleLawyer: lawyer.text });
  const [open, setOpen] = useState(false);
  const panelId = useId();

  return (
    <div
      role="search"
      aria-label="Filter matters"
      className="grid gap-3 rounded-lg border border-border bg-card p-4 shadow-xs md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]"
    >
      <div className="flex gap-2">
        <div className="relative min-w-0 flex-1">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            aria-label="Search matters"
            placeholder="Search matters..."
            className="pl-9"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <Button variant="outline" className="md:hidden" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
          <SlidersHorizontal aria-hidden="true" />
          Filters
          {count > 0 ? (
            <Badge tone="primary">
              {count}
              <span className="sr-only"> active</span>
            </Badge>
          ) : null}
        </Button>
      </div>
      {/* From 768 px its children join the grid above (status beside the search); on phones it opens and closes. */}
      <div id={panelId} className={cn('gap-3 md:contents', open ? 'grid' : 'hidden')}>
        <Select value={value.status} onValueChange={(s) => onChange({ ...value, status: s as MatterFilterValues['status'] })}>
          <SelectTrigger aria-label="Status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="All">All</SelectItem>
            <SelectItem value="Open">Open</SelectItem>
            <SelectItem value="Vaulted">Vaulted</SelectItem>
          </SelectContent>
        </Select>
        <div className="grid items-end gap-3 sm:grid-cols-2 md:col-span-2 lg:grid-cols-[1fr_1fr_auto_auto_auto]">
          <PartyAutocomplete
            kind="client"
            aria-label="Client"
            placeholder="Client"
            value={client.text}
            onValueChange={(text, { picked }) => setClient({ text, exact: picked })}
            clearable
            emptyMessage="No clients found."
          />
          <PartyAutocomplete
            kind="lawyer"
            aria-label="Lawyer"
            placeholder="Responsible lawyer"
            value={lawyer.text}
            onValueChange={(text, { picked }) => setLawyer({ text, exact: picked })}
            clearable
            emptyMessage="No lawyers found."
          />
          <div className="flex items-center gap-2">
            <Label htmlFor="matters-from" className="w-10 shrink-0 text-muted-foreground lg:w-auto">
              From
            </Label>
            <Input
              id="matters-from"
              type="date"
              className="min-w-0 flex-1 lg:w-40 lg:flex-none"
              value={value.dateFrom}
              max={value.dateTo || undefined}
              onChange={(e) => onChange({ ...value, dateFrom: e.target.value })}
            />
          </div>
          <div className="flex items-center gap-2">
            <Label htmlFor="matters-to" className="w-10 shrink-0 text-muted-foreground lg:w-auto">
              To
            </Label>
            <Input
              id="matters-to"
              type="date"
              className="min-w-0 flex-1 lg:w-40 lg:flex-none"
              value={value.dateTo}
              min={value.dateFrom || undefined}
              onChange={(e) => onChange({ ...value, dateTo: e.target.value })}
            />
          </div>
          <Button
            variant="ghost"
            disabled={!active}
            onClick={() => {
              setSearch('');
              setClient({ text: '', exact: false });
              setLawyer({ text: '', exact: false });
              onChange(EMPTY_FILTERS);
            }}
          >
            <X aria-hidden="true" />
            Clear All
          </Button>
        </div>
      </div>
    </div>
  );
}
