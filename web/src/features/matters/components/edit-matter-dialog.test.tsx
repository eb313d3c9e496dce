import { screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MATTER_MSG } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { EditMatterDialog } from './edit-matter-dialog';

const matter = makeMatter();

/** The server as the dialog meets it: the matter is stored here and changed by update calls at the right version. */
let stored: Matter;
let calls: FetchCall[];
const updates = () => calls.filter((c) => c.path === '/_api/matters/update').map((c) => c.body as Record<string, unknown>);

beforeEach(() => {
  stored = { ...matter };
  calls = stubFetch(({ path, body }) => {
    if (path === '/_api/matters/detail') return Response.json({ matter: stored, nodes: [] });
    if (path === '/_api/matters/update') {
      const { matterId: _id, expectedVersion, ...change } = body as Record<string, unknown>;
      if (expectedVersion !== stored.version) {
        return Response.json(
          {
            error: MATTER_MSG.versionMismatch,
            code: 'CONFLICT_ERROR',
            details: { reason: 'VERSION_MISMATCH', currentVersion: stored.version, updatedAt: stored.updatedAt, updatedBy: 'Mia Matters' },
          },
          { status: 409 },
        );
      }
      stored = { ...stored, ...change, version: stored.version + 1 } as Matter;
      return Response.json({ matter: stored });
    }
    return Response.json([]); // suggestions
  });
});

function open(onOpenChange = vi.fn()) {
  const r = renderWithClient(
    <>
      <EditMatterDialog matter={matter} open onOpenChange={onOpenChange} />
      <Toaster />
    </>,
  );
  return { ...r, dialog: screen.getByRole('dialog', { name: 'Edit Matter' }), onOpenChange };
}

describe('Edit Matter', () => {
  it('sends an emptied client and lawyer as null, so the server clears them, and leaves the rest out', async () => {
    const { user, dialog, onOpenChange } = open();
    await user.clear(within(dialog).getByLabelText('Client Name'));
    await user.clear(within(dialog).getByLabelText('Responsible Attorney'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(updates()).toEqual([
      { matterId: matter.id, expectedVersion: 3, matterName: 'Lease dispute', clientName: null, responsibleLawyer: null },
    ]);
    expect(await screen.findByText('Lease dispute was updated.')).toBeInTheDocument();
  });

  it('refuses to empty the number, with the reason on the field, and sends nothing', async () => {
    const { user, dialog } = open();
    const number = within(dialog).getByLabelText('Matter Number');
    await user.clear(number);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText(MATTER_MSG.matterNumberNotRemovable)).toBeInTheDocument();
    expect(number).toHaveAttribute('aria-invalid', 'true');
    expect(number).toHaveAccessibleDescription(expect.stringContaining(MATTER_MSG.matterNumberNotRemovable));
    expect(updates()).toHaveLength(0);
  });

  it('uses its own texts for a missing name and a long description', async () => {
    const { user, dialog } = open();
    await user.clear(within(dialog).getByLabelText('Matter Name'));
    await user.type(within(dialog).getByLabelText('Matter Name'), '   ');
    const description = within(dialog).getByLabelText('Description');
    await user.clear(description);
    description.focus();
    await user.paste('x'.repeat(2001));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('Matter name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Description must not exceed 2000 characters')).toBeInTheDocument();
    expect(within(dialog).queryByText(MATTER_MSG.matterNameRequired)).not.toBeInTheDocument();
    expect(updates()).toHaveLength(0);
  });

  it("after a conflict shows the other change in the fields the user left alone, keeps the user's edits, and saves both", async () => {
    const { user, dialog, onOpenChange } = open();
    const name = within(dialog).getByLabelText('Matter Name');
    await user.clear(name);
    await user.type(name, 'Lease dispute (East Pier)');
    // Meanwhile someone else changes the client and the description.
    stored = { ...stored, clientName: 'Acme Holdings Ltd', description: 'Lease of the east pier', version: 4 };

    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('The resource was modified by another user.')).toBeInTheDocument();
    expect(
      await within(dialog).findByText(
        'Mia Matters changed Client Name, Description. The form now has their changes and yours: check them and save again.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Client Name')).toHaveValue('Acme Holdings Ltd');
    expect(within(dialog).getByLabelText('Description')).toHaveValue('Lease of the east pier');
    expect(name).toHaveValue('Lease dispute (East Pier)');
    expect(onOpenChange).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    // The second try carries the newer version and only the user's own change: the other one is not undone.
    expect(updates()).toEqual([
      { matterId: matter.id, expectedVersion: 3, matterName: 'Lease dispute (East Pier)' },
      { matterId: matter.id, expectedVersion: 4, matterName: 'Lease dispute (East Pier)' },
    ]);
    expect(stored).toMatchObject({
      matterName: 'Lease dispute (East Pier)',
      clientName: 'Acme Holdings Ltd',
      description: 'Lease of the east pier',
      version: 5,
    });
  });

  it('keeps what the user typed in a field the other change touched too, and says so', async () => {
    const { user, dialog } = open();
    const client = within(dialog).getByLabelText('Client Name');
    await user.clear(client);
    await user.type(client, 'Acme Group');
    stored = { ...stored, clientName: 'Acme Holdings Ltd', version: 4 };
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(
      await within(dialog).findByText(
        'Mia Matters changed Client Name. You changed Client Name too: your version is kept. The form now has their changes and yours: check them and save again.',
      ),
    ).toBeInTheDocument();
    expect(client).toHaveValue('Acme Group');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(stored.clientName).toBe('Acme Group'));
    expect(updates().at(-1)).toEqual({ matterId: matter.id, expectedVersion: 4, matterName: 'Lease dispute', clientName: 'Acme Group' });
  });
});
