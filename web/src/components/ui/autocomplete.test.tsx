import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Autocomplete, type AutocompleteOption } from './autocomplete';

function Field({ options }: { options: AutocompleteOption[] }) {
  const [value, setValue] = useState('');
  return <Autocomplete aria-label="Lawyer" value={value} onValueChange={setValue} options={options} />;
}

const TWO: AutocompleteOption[] = [
  { value: 'Dana Dash', label: 'Dana Dash' },
  { value: 'Dana Doyle', label: 'Dana Doyle' },
];

describe('Autocomplete', () => {
  it('never points at a row that is gone once the suggestions change', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<Field options={TWO} />);
    const input = screen.getByRole('combobox', { name: 'Lawyer' });
    await user.click(input);
    await user.hover(screen.getByRole('option', { name: 'Dana Doyle' }));
    expect(input).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'Dana Doyle' }).id);
    // The suggestions come back shorter (the server answered a longer text): the highlighted row is gone.
    rerender(<Field options={TWO.slice(0, 1)} />);
    expect(screen.getAllByRole('option')).toHaveLength(1);
    const pointed = input.getAttribute('aria-activedescendant');
    expect(pointed === null || document.getElementById(pointed) !== null).toBe(true);
    // The keyboard goes on from what is there: the first row.
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'Dana Dash' }).id);
  });
});
