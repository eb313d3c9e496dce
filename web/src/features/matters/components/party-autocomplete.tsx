import { Autocomplete, type AutocompleteOption } from '@/components/ui/autocomplete';
import { Badge } from '@/components/ui/badge';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useClientSuggestions } from '../api/get-client-suggestions';
import { useLawyerSuggestions } from '../api/get-lawyer-suggestions';

const SUGGESTION_DEBOUNCE_MS = 300;

type PartyAutocompleteProps = {
  kind: 'client' | 'lawyer';
  id?: string;
  value: string;
  onValueChange: (value: string) => void;
  placeholder?: string;
  clearable?: boolean;
  emptyMessage?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
};

function count(n: number) {
  return `${n} ${n === 1 ? 'matter' : 'matters'}`;
}

/** Client or lawyer name with suggestions from earlier matters ('{n} matters', Frequent from 3). */
export function PartyAutocomplete({ kind, value, onValueChange, ...rest }: PartyAutocompleteProps) {
  const query = useDebouncedValue(value, SUGGESTION_DEBOUNCE_MS);
  const clients = useClientSuggestions(query, kind === 'client');
  const lawyers = useLawyerSuggestions(query, kind === 'lawyer');
  const options: AutocompleteOption[] =
    kind === 'client'
      ? (clients.data ?? []).map((s) => ({
          value: s.clientName,
          label: s.clientName,
          meta: count(s.matterCount),
          badge: s.isFrequentClient ? <Badge tone="primary">Frequent</Badge> : undefined,
        }))
      : (lawyers.data ?? []).map((s) => ({
          value: s.lawyerName,
          label: s.lawyerName,
          meta: count(s.matterCount),
          badge: s.isFrequentLawyer ? <Badge tone="primary">Frequent</Badge> : undefined,
        }));
  const loading = kind === 'client' ? clients.isFetching : lawyers.isFetching;
  return <Autocomplete value={value} onValueChange={onValueChange} options={options} loading={loading} {...rest} />;
}
