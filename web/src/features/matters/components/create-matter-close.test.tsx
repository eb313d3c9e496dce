import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Button } from '@/components/ui/button';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { CreateMatterDialog } from './create-matter-dialog';

beforeEach(() => {
  stubFetch(({ path }) => (path === '/_api/matters/next-number' ? Response.json({ matterNumber: 'MAT-2026-007' }) : Response.json([])));
});

/** The page's New Matter button and its dialog. */
function Page() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>New Matter</Button>
      <CreateMatterDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

async function openDialog() {
  const r = renderWithClient(<Page />);
  await r.user.click(screen.getByRole('button', { name: 'New Matter' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create New Matter' });
  await waitFor(() => expect(within(dialog).getByLabelText('Matter Number')).toHaveValue('MAT-2026-007'));
  return { ...r, dialog };
}

describe('closing Create New Matter', () => {
  it('closes an untouched form at once and gives the focus back to New Matter', async () => {
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'New Matter' })).toHaveFocus());
  });

  it('asks before discarding a filled form: Keep editing goes back to it, Discard closes it', async () => {
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Matter Name *'), 'Quay lease');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('dialog', { name: 'Discard this new matter?' });
    expect(within(ask).getByRole('button', { name: 'Keep editing' })).toHaveFocus();
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('dialog', { name: 'Discard this new matter?' })).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Matter Name *')).toHaveValue('Quay lease');

    // Escape asks too.
    within(dialog).getByLabelText('Matter Name *').focus();
    await user.keyboard('{Escape}');
    const again = await screen.findByRole('dialog', { name: 'Discard this new matter?' });
    await user.click(within(again).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'New Matter' })).toHaveFocus());

    // The next New Matter starts empty.
    await user.click(screen.getByRole('button', { name: 'New Matter' }));
    const fresh = await screen.findByRole('dialog', { name: 'Create New Matter' });
    expect(within(fresh).getByLabelText('Matter Name *')).toHaveValue('');
  });

  it('counts a changed number as something typed, and the generated one as nothing', async () => {
    const { user, dialog } = await openDialog();
    const number = within(dialog).getByLabelText('Matter Number');
    await user.clear(number);
    await user.type(number, 'MAT-2026-100');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Discard this new matter?' })).toBeInTheDocument();
  });
});
