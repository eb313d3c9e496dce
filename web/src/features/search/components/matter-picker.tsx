import { useState } from 'react';
import { Autocomplete, type AutocompleteChange } from '@/components/ui/autocomplete';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useMatterChoices } from '../api/search-documents';

const TYPING_PAUSE_MS = 300;

type MatterPickerProps = {
  matterId: string;
  /** The chosen matter's name as the page knows it (from the hits), shown while its own list has not answered. */
  knownLabel?: string;
  onChange: (matterId: string) => void;
};

type Choice = { id: string; matterName: string; matterNumber: string | null };
const labelOf = (m: Choice) => (m.matterNumber ? `${m.matterName} · ${m.matterNumber}` : m.matterName);

/**
 * The matter filter: the matters whose name or number holds the typed text, by name. Only a picked matter filters
 * the search; the x (or emptying the field) searches every matter again.
 */
export function MatterPicker({ matterId, knownLabel, onChange }: MatterPickerProps) {
  const [text, setText] = useState<string | null>(null);
  const [picked, setPicked] = useState<{ id: string; label: string } | null>(null);
  const typed = useDebouncedValue(text ?? '', TYPING_PAUSE_MS);
  const choices = useMatterChoices(typed.trim());
  const matters = choices.data?.matters ?? [];
  const chosen = matters.find((m) => m.id === matterId);
  // Until the person types, the field shows the chosen matter (or nothing).
  const label = picked?.id === matterId ? picked.label : chosen ? labelOf(chosen) : knownLabel;
  const shown = text ?? (matterId ? (label ?? '') : '');

  const change = (value: string, { picked }: AutocompleteChange) => {
    setText(value);
    if (picked) {
      const m = matters.find((c) => labelOf(c) === value);
      if (m) {
        setText(null);
        setPicked({ id: m.id, label: value });
        onChange(m.id);
      }
    } else if (value.trim() === '' && matterId) onChange('');
  };

  return (
    <Autocomplete
      aria-label="Matter"
      placeholder="All matters"
      value={shown}
      onValueChange={change}
      options={matters.map((m) => ({ value: labelOf(m), label: labelOf(m), meta: m.clientName ?? undefined }))}
      loading={choices.isFetching && !choices.data}
      error={choices.isError ? 'Matters could not be loaded.' : null}
      emptyMessage="No matters found."
      clearable
      clearLabel="Search every matter"
    />
  );
}
