import { configure, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, VAULT_MSG } from '@strongroom/contracts';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { MfaHost } from '@/test/mfa-host';
import { VaultMatterDialog } from './vault-matter-dialog';

// Six people share two cores: a screen may take longer than the default second to answer.
configure({ asyncUtilTimeout: 5_000 });

const CODE = '864200';
const matter = makeMatter({ matterName: 'Estate of A. Vale' });
const mfaRequired = () =>
  Response.json(
    {
      error: 'MFA_REQUIRED',
      code: 'MFA_REQUIRED',
      mfaRequired: true,
      message: MSG.mfaRequired,
      details: { operation: 'VAULT_MATTER', availableMethods: ['totp'], mfaMethod: 'totp' },
    },
    { status: 401 },
  );

type Server = { retention: () => Response; start?: () => Response; release?: Promise<void> };
let server: Server;
let calls: FetchCall[];
const starts = () => calls.filter((c) => c.path === '/_api/vault/start').map((c) => c.body);

beforeEach(() => {
  server = { retention: () => Response.json({ error: 'Forbidden' }, { status: 403 }) };
  calls = stubFetch(async ({ path, body }) => {
    if (path === '/_api/settings/retention') return server.retention();
    if (path !== '/_api/vault/start') return Response.json({ error: 'not here' }, { status: 404 });
    if (server.start) return server.start();
    // Vaulting always needs a fresh code.
    if ((body as { mfaToken?: string }).mfaToken !== CODE) return mfaRequired();
    if (server.release) await server.release;
    return Response.json({
      message: 'Matter vaulted; 3 files are on their way to the vault.',
      vaultedAt: '2026-03-10T12:00:00.000Z',
      retentionExpiresAt: '2036-03-10T12:00:00.000Z',
    });
  });
});
afterEach(() => resetMfaRequestsForTest());

function open() {
  const onOpenChange = vi.fn();
  const r = renderWithClient(
    <>
      <VaultMatterDialog matter={matter} open onOpenChange={onOpenChange} />
      <MfaHost />
      <Toaster />
    </>,
  );
  return { ...r, onOpenChange, dialog: screen.getByRole('dialog', { name: 'Vault Matter' }) };
}

async function enterCode(user: ReturnType<typeof open>['user'], code: string) {
  const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
  await user.type(within(mfa).getByLabelText('Verification Code'), code);
  await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
}

describe('Vault Matter', { timeout: 20_000 }, () => {
  it('offers 1 to 20 years with 7 recommended and chosen, and says files go after that time unless held', async () => {
    const { user, dialog } = open();
    const select = within(dialog).getByRole('combobox', { name: 'Retention Period' });
    await waitFor(() => expect(select).toHaveTextContent('7 years (recommended)'));
    expect(select).toHaveAccessibleDescription(VAULT_MSG.retentionNote);
    await user.click(select);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      '1 year',
      '3 years',
      '5 years',
      '7 years (recommended)',
      '10 years',
      '15 years',
      '20 years',
    ]);
  });

  it('starts from the organization’s default retention when the settings answer one', async () => {
    server.retention = () => Response.json({ defaultRetentionYears: 10 });
    const { dialog } = open();
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Retention Period' })).toHaveTextContent('10 years'));
  });

  // The dialog's own 2 s pause before it closes is part of this test's time.
  it(
    'asks for a code, repeats the same request with it, shows processing then success, and closes after 2 s',
    { timeout: 15_000 },
    async () => {
      let release!: () => void;
      server.release = new Promise<void>((r) => (release = r));
      const { user, dialog, onOpenChange } = open();
      await user.click(within(dialog).getByRole('combobox', { name: 'Retention Period' }));
      await user.click(await screen.findByRole('option', { name: '15 years' }));
      await user.click(within(dialog).getByRole('button', { name: 'Vault Matter' }));

      const processing = await screen.findByRole('dialog', { name: 'Vaulting Matter' });
      expect(within(processing).getByRole('progressbar', { name: 'Vaulting progress' })).toHaveAttribute('aria-valuenow', '75');
      for (const text of ['Matter marked as vaulted', 'Legal hold applied', 'Transferring files to cold storage...']) {
        expect(processing).toHaveTextContent(text);
      }
      await enterCode(user, CODE);
      release();

      const success = await screen.findByRole('dialog', { name: 'Matter Vaulted' });
      expect(success).toHaveTextContent('15 years');
      expect(success).toHaveTextContent('Legal Hold Active');
      expect(success).toHaveTextContent('Files are being transferred to cold storage');
      expect(await screen.findByText('Matter vaulted; 3 files are on their way to the vault.')).toBeInTheDocument();
      expect(onOpenChange).not.toHaveBeenCalled();
      await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false), { timeout: 5_000 });
      expect(starts()).toEqual([
        { matterId: matter.id, retentionYears: 15 },
        { matterId: matter.id, retentionYears: 15, mfaToken: CODE },
      ]);
    },
  );

  it('uses the default success text when the server gives none', async () => {
    server.start = () => Response.json({ message: '', vaultedAt: '2026-03-10T12:00:00.000Z', retentionExpiresAt: null });
    const { user, dialog } = open();
    await user.click(within(dialog).getByRole('button', { name: 'Vault Matter' }));
    expect(await screen.findByText(VAULT_MSG.vaultStarted)).toBeInTheDocument();
  });

  it('returns to confirm with the server’s reason when vaulting is refused', async () => {
    server.start = () => Response.json({ error: VAULT_MSG.vaultHeld, code: 'CONFLICT' }, { status: 409 });
    const { user, dialog } = open();
    await user.click(within(dialog).getByRole('button', { name: 'Vault Matter' }));
    const back = await screen.findByRole('dialog', { name: 'Vault Matter' });
    expect(within(back).getByRole('alert')).toHaveTextContent(VAULT_MSG.vaultHeld);
    expect(await screen.findAllByText(VAULT_MSG.vaultHeld)).toHaveLength(2);
  });

  it('says why a store without write-once storage is refused, before any code is asked for', async () => {
    const refusal = VAULT_MSG.unlockedStoreRefused('Object Lock is not enabled on bucket archive');
    server.start = () => Response.json({ error: refusal, code: 'CONFLICT_ERROR' }, { status: 409 });
    const { user, dialog } = open();
    await user.click(within(dialog).getByRole('button', { name: 'Vault Matter' }));
    const back = await screen.findByRole('dialog', { name: 'Vault Matter' });
    expect(within(back).getByRole('alert')).toHaveTextContent(
      'The object store does not enforce write-once storage (Object Lock is not enabled on bucket archive): vaulting is refused. An administrator can allow it for evaluation only with VAULT_ALLOW_UNLOCKED_STORE=true.',
    );
    expect(screen.queryByRole('dialog', { name: 'Verification required' })).not.toBeInTheDocument();
    expect(starts()).toHaveLength(1);
  });

  it('returns to confirm quietly when the code dialog is closed', async () => {
    const { user, dialog, onOpenChange } = open();
    await user.click(within(dialog).getByRole('button', { name: 'Vault Matter' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.click(within(mfa).getByRole('button', { name: 'Cancel' }));
    const back = await screen.findByRole('dialog', { name: 'Vault Matter' });
    expect(within(back).queryByRole('alert')).not.toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(starts()).toHaveLength(1);
  });
});
