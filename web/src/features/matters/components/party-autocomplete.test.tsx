import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { CreateMatterDialog } from './create-matter-dialog';
import { EMPTY_FILTERS, MatterFilters } from './matter-filters';

const LAWYERS = [{ lawyerName: 'Mia Matters', matterCount: 4, isFrequentLawyer: true }];
const CLIENTS = [{ clientName: 'Marlow Estates', matterCount: 2, isFrequentClient: false }];

let calls: FetchCall[];
beforeEach(() => {
  calls = stubFetch(({ path, url }) => {
    if (path === '/_api/matters/next-number') return Response.json({ matterNumber: 'MAT-2026-007' });
    if (path === '/_api/matters/create') return Response.json({ matter: makeMatter({ matterName: 'Quay lease' }) });
    const q = (url.searchParams.get('query') ?? '').toLowerCase();
    if (path === '/_api/matters/lawyers/suggestions') return Response.json(LAWYERS.filter((l) => l.lawyerName.toLowerCase().includes(q)));
    if (path === '/_api/matters/clients/suggestions') return Response.json(CLIENTS.filter((c) => c.clientName.toLowerCase().includes(q)));
    return Response.json([]);
  });
});

async function openCreate() {
  const r = renderWithClient(<CreateMatterDialog open onOpenChange={vi.fn()} />);
  const dialog = screen.getByRole('dialog', { name: 'Create New Matter' });
  await waitFor(() => expect(within(dialog).getByLabelText('Matter Number')).toHaveValue('MAT-2026-007'));
  return { ...r, dialog, lawyer: within(dialog).getByRole('combobox', { name: 'Responsible Attorney *' }) };
}

describe('the matter form autocompletes', () => {
  it("offer Add '<name>' for a new name, beside the empty message, and close once it is chosen", async () => {
    const { user, dialog, lawyer } = await openCreate();
    await user.type(lawyer, 'Dana Dash');
    const add = await screen.findByRole('option', { name: /Add 'Dana Dash'/ });
    expect(await screen.findByText('No lawyers found. Type to add a new lawyer.')).toHaveAttribute('role', 'status');
    expect(lawyer).toHaveAttribute('aria-expanded', 'true');
    await user.click(add);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(lawyer).toHaveAttribute('aria-expanded', 'false');
    expect(lawyer).toHaveValue('Dana Dash');
    expect(lawyer).toHaveFocus();
    // Nothing is left over the dialog's buttons.
    await user.type(within(dialog).getByLabelText('Matter Name *'), 'Quay lease');
    await user.type(within(dialog).getByRole('combobox', { name: 'Client Name *' }), 'Quay Holdings');
    await user.click(within(dialog).getByRole('button', { name: 'Create Matter' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/_api/matters/create')?.body).toMatchObject({ responsibleAttorney: 'Dana Dash' }),
    );
  });

  it('offer no Add row when the typed name is a suggestion, whatever its case', async () => {
    const { user, lawyer } = await openCreate();
    await user.type(lawyer, 'mia matters');
    expect(await screen.findByRole('option', { name: /Mia Matters/ })).toBeInTheDocument();
    expect(screen.getAllByRole('option')).toHaveLength(1);
    expect(screen.queryByRole('option', { name: /^Add/ })).not.toBeInTheDocument();
  });

  it('close on Enter without submitting the form, and Enter then submits', async () => {
    const { user, lawyer } = await openCreate();
    await user.type(lawyer, 'Dana Dash');
    await screen.findByRole('option', { name: /Add 'Dana Dash'/ });
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(lawyer).toHaveValue('Dana Dash');
    expect(screen.queryByText('Matter name is required.')).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Matter name is required.')).toBeInTheDocument();
  });

  it('close on Tab, and the focus goes where Tab sends it', async () => {
    const { user, dialog, lawyer } = await openCreate();
    await user.type(lawyer, 'Dana');
    await screen.findByRole('option', { name: /Add 'Dana'/ });
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(lawyer).toHaveValue('Dana');
  });

  it('take the highlighted suggestion with the arrows and Tab', async () => {
    const { user, dialog, lawyer } = await openCreate();
    await user.type(lawyer, 'mia');
    await screen.findByRole('option', { name: /Mia Matters/ });
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('option', { name: /Mia Matters/ })).toHaveAttribute('aria-selected', 'true');
    await user.tab();
    expect(lawyer).toHaveValue('Mia Matters');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  });
});

describe('the client filter', () => {
  it('reports typed text as a part of the name and a picked suggestion as the whole name', async () => {
    const onChange = vi.fn();
    const { user } = renderWithClient(<MatterFilters value={EMPTY_FILTERS} onChange={onChange} />);
    const client = screen.getByRole('combobox', { name: 'Client' });
    await user.type(client, 'marlow');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ ...EMPTY_FILTERS, clientName: 'marlow', clientNameExact: false }));
    // Filters offer no Add row: there is nothing to add.
    await user.click(await screen.findByRole('option', { name: /Marlow Estates/ }));
    expect(screen.queryByRole('option', { name: /^Add/ })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith({ ...EMPTY_FILTERS, clientName: 'Marlow Estates', clientNameExact: true }),
    );
  });
});
