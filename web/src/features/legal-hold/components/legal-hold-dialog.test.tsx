import { configure, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, VAULT_MSG } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { MfaHost } from '@/test/mfa-host';
import { LegalHoldDialog } from './legal-hold-dialog';

// Six people share two cores: a screen may take longer than the default second to answer.
configure({ asyncUtilTimeout: 5_000 });

const VALID_CODE = '135790';
const REASON = 'Litigation pending: preserve every record';
const mfaRequired = () =>
  Response.json(
    {
      error: 'MFA_REQUIRED',
      code: 'MFA_REQUIRED',
      mfaRequired: true,
      message: MSG.mfaRequired,
      details: { operation: 'MFA_VAULT_OPERATIONS', availableMethods: ['totp'], mfaMethod: 'totp' },
    },
    { status: 401 },
  );

type Server = { demandCode: boolean; answer?: () => Response };
let server: Server;
let calls: FetchCall[];
const holdCalls = () => calls.filter((c) => c.path === '/_api/matters/legal-hold').map((c) => c.body);

beforeEach(() => {
  server = { demandCode: false };
  calls = stubFetch(({ path, body }) => {
    if (path !== '/_api/matters/legal-hold') return Response.json({ error: 'not here' }, { status: 404 });
    if (server.answer) return server.answer();
    const b = body as { matterId: string; action: 'apply' | 'remove'; reason?: string; mfaToken?: string };
    if (server.demandCode && b.mfaToken !== VALID_CODE) return mfaRequired();
    const held = b.action === 'apply';
    return Response.json({
      matter: makeMatter({ legalHold: held, holdReason: held ? (b.reason ?? null) : null }),
      message: held ? VAULT_MSG.holdApplied : VAULT_MSG.holdRemoved,
    });
  });
});
afterEach(() => resetMfaRequestsForTest());

function open(matter: Matter, isAdmin = true) {
  const onOpenChange = vi.fn();
  const r = renderWithClient(
    <>
      <LegalHoldDialog matter={matter} open onOpenChange={onOpenChange} isAdmin={isAdmin} />
      <MfaHost />
      <Toaster />
    </>,
  );
  return { ...r, onOpenChange };
}

describe('Apply Legal Hold', { timeout: 20_000 }, () => {
  it('keeps Continue disabled until the reason has 10 characters, and says so under the field', async () => {
    const { user } = open(makeMatter());
    const dialog = screen.getByRole('dialog', { name: 'Apply Legal Hold' });
    const next = within(dialog).getByRole('button', { name: 'Continue' });
    expect(next).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason'), 'too short');
    expect(await within(dialog).findByText(VAULT_MSG.reasonTooShort)).toBeInTheDocument();
    expect(next).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason'), '!');
    await waitFor(() => expect(next).toBeEnabled());
    expect(within(dialog).queryByText(VAULT_MSG.reasonTooShort)).not.toBeInTheDocument();
    expect(holdCalls()).toHaveLength(0);
  });

  it('confirms with the reason shown, can go Back to edit it, then applies the hold and says so', async () => {
    const { user } = open(makeMatter({ matterName: 'Harbour Lease' }));
    await user.type(screen.getByLabelText('Reason'), 'A first reason text');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm: Apply Legal Hold' });
    expect(confirm).toHaveTextContent('A first reason text');
    expect(confirm).toHaveTextContent('Harbour Lease');
    await user.click(within(confirm).getByRole('button', { name: 'Back' }));
    const reason = screen.getByLabelText('Reason');
    expect(reason).toHaveValue('A first reason text');
    await user.clear(reason);
    await user.type(reason, `  ${REASON}  `);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('dialog', { name: 'Confirm: Apply Legal Hold' })).toHaveTextContent(REASON);
    await user.click(screen.getByRole('button', { name: 'Confirm & Proceed' }));

    expect(await screen.findByRole('dialog', { name: 'Legal Hold Applied' })).toBeInTheDocument();
    expect(await screen.findAllByText(VAULT_MSG.holdApplied)).not.toHaveLength(0);
    expect(holdCalls()).toEqual([{ matterId: makeMatter().id, action: 'apply', reason: REASON }]);
  });

  it('asks for a code when the server demands one and repeats the same request with it', async () => {
    server.demandCode = true;
    const { user } = open(makeMatter());
    await user.type(screen.getByLabelText('Reason'), REASON);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm & Proceed' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.type(within(mfa).getByLabelText('Verification Code'), VALID_CODE);
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('dialog', { name: 'Legal Hold Applied' })).toBeInTheDocument();
    const id = makeMatter().id;
    expect(holdCalls()).toEqual([
      { matterId: id, action: 'apply', reason: REASON },
      { matterId: id, action: 'apply', reason: REASON, mfaToken: VALID_CODE },
    ]);
  });

  it('returns to the form without alarm when the code dialog is closed', async () => {
    server.demandCode = true;
    const { user } = open(makeMatter());
    await user.type(screen.getByLabelText('Reason'), REASON);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm & Proceed' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.click(within(mfa).getByRole('button', { name: 'Cancel' }));
    const form = await screen.findByRole('dialog', { name: 'Apply Legal Hold' });
    expect(within(form).getByRole('status')).toHaveTextContent(MSG.mfaRequired);
    expect(within(form).getByLabelText('Reason')).toHaveValue(REASON);
  });

  it('returns to the form with the server’s reason when the change is refused', async () => {
    server.answer = () => Response.json({ error: VAULT_MSG.holdAlreadyApplied, code: 'CONFLICT' }, { status: 409 });
    const { user } = open(makeMatter());
    await user.type(screen.getByLabelText('Reason'), REASON);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm & Proceed' }));
    const form = await screen.findByRole('dialog', { name: 'Apply Legal Hold' });
    expect(within(form).getByRole('alert')).toHaveTextContent(VAULT_MSG.holdAlreadyApplied);
  });
});

describe('Remove Legal Hold', { timeout: 20_000 }, () => {
  it('takes no reason, confirms, removes the hold and says so', async () => {
    const matter = makeMatter({ legalHold: true, holdReason: REASON });
    const { user, onOpenChange } = open(matter);
    const dialog = screen.getByRole('dialog', { name: 'Remove Legal Hold' });
    const next = within(dialog).getByRole('button', { name: 'Continue' });
    await waitFor(() => expect(next).toBeEnabled());
    // A short reason is refused: given, it must have 10 characters.
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'settled');
    expect(await within(dialog).findByText(VAULT_MSG.reasonTooShort)).toBeInTheDocument();
    expect(next).toBeDisabled();
    await user.clear(within(dialog).getByLabelText('Reason (optional)'));
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    expect(await screen.findByRole('dialog', { name: 'Confirm: Remove Legal Hold' })).toHaveTextContent('No reason given');
    await user.click(screen.getByRole('button', { name: 'Confirm & Proceed' }));
    expect(await screen.findByRole('dialog', { name: 'Legal Hold Removed' })).toBeInTheDocument();
    expect(await screen.findAllByText(VAULT_MSG.holdRemoved)).not.toHaveLength(0);
    expect(holdCalls()).toEqual([{ matterId: matter.id, action: 'remove' }]);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe('someone who is not an administrator', { timeout: 20_000 }, () => {
  it('sees Permission Denied with the reason and can only close', async () => {
    open(makeMatter(), false);
    const dialog = screen.getByRole('dialog', { name: VAULT_MSG.holdPermissionTitle });
    expect(dialog).toHaveTextContent(VAULT_MSG.holdPermissionDenied);
    expect(within(dialog).queryByLabelText(/Reason/)).not.toBeInTheDocument();
  });

  it('sees Permission Denied when the server refuses an administrator whose role has just changed', async () => {
    server.answer = () => Response.json({ error: VAULT_MSG.holdPermissionDenied, code: 'FORBIDDEN' }, { status: 403 });
    const { user } = open(makeMatter());
    await user.type(screen.getByLabelText('Reason'), REASON);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm & Proceed' }));
    expect(await screen.findByRole('dialog', { name: VAULT_MSG.holdPermissionTitle })).toHaveTextContent(VAULT_MSG.holdPermissionDenied);
  });
});
