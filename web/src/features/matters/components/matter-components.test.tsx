import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MATTER_MSG } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { EMPTY_FILTERS, MatterFilters, type MatterFilterValues } from './matter-filters';
import { PartyAutocomplete } from './party-autocomplete';

describe('client and lawyer suggestions', () => {
  it("read '{n} matters' for every count, one included", async () => {
    stubFetch(() =>
      Response.json([
        { clientName: 'Acme Holdings', matterCount: 1, isFrequentClient: false },
        { clientName: 'Baxter & Co', matterCount: 4, isFrequentClient: true },
      ]),
    );
    const { user } = renderWithClient(
      <PartyAutocomplete kind="client" aria-label="Client" value="" onValueChange={() => {}} emptyMessage="No clients found." />,
    );
    await user.click(screen.getByRole('combobox', { name: 'Client' }));
    expect(await screen.findByRole('option', { name: /Acme Holdings/ })).toBeInTheDocument();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme Holdings1 matters', 'Baxter & Co4 mattersFrequent']);
  });

  it('say that loading them failed instead of showing an empty list', async () => {
    stubFetch(() => new Response('', { status: 500 }));
    const { user } = renderWithClient(
      <PartyAutocomplete kind="client" aria-label="Client" value="" onValueChange={() => {}} emptyMessage="No clients found." />,
    );
    await user.click(screen.getByRole('combobox', { name: 'Client' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MATTER_MSG.fetchClientsFailed);
    expect(screen.queryByText('No clients found.')).not.toBeInTheDocument();
  });

  it("show the server's text when the failed answer has one", async () => {
    stubFetch(() => Response.json({ error: 'Please log in to continue.', code: 'UNAUTHENTICATED' }, { status: 401 }));
    const { user } = renderWithClient(
      <PartyAutocomplete kind="lawyer" aria-label="Lawyer" value="" onValueChange={() => {}} emptyMessage="No lawyers found." />,
    );
    await user.click(screen.getByRole('combobox', { name: 'Lawyer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please log in to continue.');
  });
});

describe('the status filter', () => {
  it("offers 'All' first and shows it when no status is chosen", async () => {
    stubFetch(() => Response.json([]));
    const { user } = renderWithClient(<MatterFilters value={EMPTY_FILTERS} onChange={() => {}} />);
    const trigger = screen.getByRole('combobox', { name: 'Status' });
    expect(trigger).toHaveTextContent('All');
    trigger.focus();
    await user.keyboard('{Enter}');
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['All', 'Open', 'Vaulted']);
  });
});

describe('the filter fields', () => {
  it('follow the filters when they change from outside (Clear All, Back)', () => {
    stubFetch(() => Response.json([]));
    const onChange = vi.fn();
    const { rerender } = renderWithClient(
      <MatterFilters value={{ ...EMPTY_FILTERS, search: 'lease', clientName: 'Acme' }} onChange={onChange} />,
    );
    expect(screen.getByRole('searchbox', { name: 'Search matters' })).toHaveValue('lease');
    rerender(<MatterFilters value={EMPTY_FILTERS} onChange={onChange} />);
    expect(screen.getByRole('searchbox', { name: 'Search matters' })).toHaveValue('');
  });

  it('keep what was typed while the text reported before comes back in the address', async () => {
    stubFetch(() => Response.json([]));
    const reports: MatterFilterValues[] = [];
    const onChange = (next: MatterFilterValues) => reports.push(next);
    const { user, rerender } = renderWithClient(<MatterFilters value={EMPTY_FILTERS} onChange={onChange} />);
    const search = screen.getByRole('searchbox', { name: 'Search matters' });
    await user.type(search, 'marl');
    await waitFor(() => expect(reports.map((r) => r.search)).toEqual(['marl']), { timeout: 3000 });
    // More typing before a busy page applies the address it was given.
    await user.type(search, 'ow');
    rerender(<MatterFilters value={reports[0]!} onChange={onChange} />);
    expect(search).toHaveValue('marlow');
    await waitFor(() => expect(reports.map((r) => r.search)).toEqual(['marl', 'marlow']), { timeout: 3000 });
    // A change from outside is still followed.
    rerender(<MatterFilters value={EMPTY_FILTERS} onChange={onChange} />);
    expect(search).toHaveValue('');
  });
});
