import { screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MATTER_MSG } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { CreateMatterDialog } from './create-matter-dialog';

const created = makeMatter({
  matterName: 'Harbor Lease Dispute',
  matterNumber: 'MAT-2026-007',
  clientName: 'Northwind Shipping',
  description: null,
  responsibleLawyer: 'Mia Matters',
  version: 1,
});

let calls: FetchCall[];
let createAnswer: () => Response;
const creates = () => calls.filter((c) => c.path === '/_api/matters/create').map((c) => c.body);

beforeEach(() => {
  createAnswer = () => Response.json({ matter: created });
  calls = stubFetch(({ path }) => {
    if (path === '/_api/matters/next-number') return Response.json({ matterNumber: 'MAT-2026-007' });
    if (path === '/_api/matters/create') return createAnswer();
    return Response.json([]); // suggestions
  });
});

async function open() {
  const onOpenChange = vi.fn();
  const onCreated = vi.fn();
  const r = renderWithClient(
    <>
      <CreateMatterDialog open onOpenChange={onOpenChange} onCreated={onCreated} />
      <Toaster />
    </>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Create New Matter' });
  // The generated number fills the field once it arrives.
  await waitFor(() => expect(within(dialog).getByLabelText('Matter Number')).toHaveValue('MAT-2026-007'));
  return { ...r, dialog, onOpenChange, onCreated };
}

async function fillRequired(user: Awaited<ReturnType<typeof open>>['user'], dialog: HTMLElement) {
  await user.type(within(dialog).getByLabelText('Matter Name *'), 'Harbor Lease Dispute');
  await user.type(within(dialog).getByLabelText('Client Name *'), 'Northwind Shipping');
  await user.type(within(dialog).getByLabelText('Responsible Attorney *'), 'Mia Matters');
}

describe('Create New Matter', () => {
  it('names each missing required field with its text and sends nothing', async () => {
    const { user, dialog } = await open();
    await user.click(within(dialog).getByRole('button', { name: 'Create Matter' }));
    expect(await within(dialog).findByText(MATTER_MSG.matterNameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(MATTER_MSG.clientNameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(MATTER_MSG.responsibleAttorneyRequired)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Matter Name *')).toHaveAccessibleDescription(MATTER_MSG.matterNameRequired);
    expect(creates()).toHaveLength(0);
  });

  it('refuses a number in another format', async () => {
    const { user, dialog } = await open();
    await fillRequired(user, dialog);
    const number = within(dialog).getByLabelText('Matter Number');
    await user.clear(number);
    await user.type(number, '2026-7');
    await user.click(within(dialog).getByRole('button', { name: 'Create Matter' }));
    expect(await within(dialog).findByText(MATTER_MSG.matterNumberFormat)).toBeInTheDocument();
    expect(creates()).toHaveLength(0);
  });

  it('leaves the generated number out when unchanged, so the server takes the next free one', async () => {
    const { user, dialog, onOpenChange, onCreated } = await open();
    await fillRequired(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Create Matter' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(created));
    expect(creates()).toEqual([
      { matterName: 'Harbor Lease Dispute', clientName: 'Northwind Shipping', responsibleAttorney: 'Mia Matters' },
    ]);
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(await screen.findByText(MATTER_MSG.created)).toBeInTheDocument();
  });

  it('sends a number the user typed, and shows a taken one on the number field', async () => {
    createAnswer = () =>
      Response.json(
        { error: MATTER_MSG.matterNumberExists, code: 'CONFLICT_ERROR', details: { reason: 'NUMBER_TAKEN', field: 'matterNumber' } },
        { status: 409 },
      );
    const { user, dialog, onOpenChange } = await open();
    await fillRequired(user, dialog);
    const number = within(dialog).getByLabelText('Matter Number');
    await user.clear(number);
    await user.type(number, 'MAT-2026-001');
    await user.click(within(dialog).getByRole('button', { name: 'Create Matter' }));
    expect(await within(dialog).findByText(MATTER_MSG.matterNumberExists)).toBeInTheDocument();
    expect(creates()).toEqual([
      {
        matterName: 'Harbor Lease Dispute',
        matterNumber: 'MAT-2026-001',
        clientName: 'Northwind Shipping',
        responsibleAttorney: 'Mia Matters',
      },
    ]);
    expect(number).toHaveFocus();
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('says Failed to create matter once when the server gave no reason, and adds the reason when it gave one', async () => {
    createAnswer = () => new Response('', { status: 500 });
    const { user, dialog } = await open();
    await fillRequired(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Create Matter' }));
    const toast = await screen.findByText('Failed to create matter');
    expect(toast.textContent).toBe('Failed to create matter');
    expect(screen.queryByText(/Failed to create matter: Failed to create matter/)).not.toBeInTheDocument();

    createAnswer = () => Response.json({ error: 'The client name is too long.' }, { status: 400 });
    await user.click(within(dialog).getByRole('button', { name: 'Create Matter' }));
    expect(await screen.findByText('Failed to create matter: The client name is too long.')).toBeInTheDocument();
  });
});
