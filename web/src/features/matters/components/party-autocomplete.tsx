import { MATTER_MSG } from '@strongroom/contracts';
import { Autocomplete, type AutocompleteChange, type AutocompleteOption } from '@/components/ui/autocomplete';
import { Badge } from '@/components/ui/badge';
import { errorMessage } from '@/lib/api-error';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useClientSuggestions } from '../api/get-client-suggestions';
import { useLawyerSuggestions } from '../api/get-lawyer-suggestions';

const SUGGESTION_DEBOUNCE_MS = 300;

type PartyAutocompleteProps = {
  kind: 'client' | 'lawyer';
  id?: string;
  value: string;
  /** picked: the value is one of the suggestions, chosen (not typed). */
  onValueChange: (value: string, change: AutocompleteChange) => void;
  /** Offers "Add '<name>'" when the typed name is not among the suggestions (the matter form). */
  allowAdd?: boolean;
  placeholder?: string;
  clearable?: boolean;
  emptyMessage?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
};

/** The suggestion's count reads '{n} matters', whatever n is. */
function matterCountLabel(n: number): string {
  return `${n} matters`;
}

/** The Add row's text: Add 'Dana Dash'. */
function addNameLabel(name: string): string {
  return `Add '${name}'`;
}

/**
 * Client or lawyer name with suggestions from earlier matters ('{n} matters', Frequent from 3). A failed
 * suggestion call says so in the list (the server's text, else 'Failed to fetch client suggestions').
 */
export function PartyAutocomplete({ kind, value, onValueChange, allowAdd = false, ...rest }: PartyAutocompleteProps) {
  const query = useDebouncedValue(value, SUGGESTION_DEBOUNCE_MS);
  const clients = useClientSuggestions(query, kind === 'client');
  const lawyers = useLawyerSuggestions(query, kind === 'lawyer');
  const options: AutocompleteOption[] =
    kind === 'client'
      ? (clients.data ?? []).map((s) => ({
          value: s.clientName,
          label: s.clientName,
          meta: matterCountLabel(s.matterCount),
          badge: s.isFrequentClient ? <Badge tone="primary">Frequent</Badge> : undefined,
        }))
      : (lawyers.data ?? []).map((s) => ({
          value: s.lawyerName,
          label: s.lawyerName,
          meta: matterCountLabel(s.matterCount),
          badge: s.isFrequentLawyer ? <Badge tone="primary">Frequent</Badge> : undefined,
        }));
  const active = kind === 'client' ? clients : lawyers;
  const error = active.isError
    ? errorMessage(active.error, kind === 'client' ? MATTER_MSG.fetchClientsFailed : MATTER_MSG.fetchLawyersFailed)
    : null;
  const addOption = allowAdd ? { label: addNameLabel, meta: kind === 'client' ? 'New client' : 'New lawyer' } : undefined;
  return (
    <Autocomplete
      value={value}
      onValueChange={onValueChange}
      options={options}
      loading={active.isFetching}
      error={error}
      addOption={addOption}
      {...rest}
    />
  );
}
