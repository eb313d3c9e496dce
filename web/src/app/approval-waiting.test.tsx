import { configure, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APPROVAL_MSG, MSG, VAULT_MSG, type ApprovalRequiredResponse } from '@strongroom/contracts';
import { ApprovalWaitingHost } from '@/features/approvals/components/approval-waiting-dialog';
import { VaultMatterDialog } from '@/features/vault/components/vault-matter-dialog';
import { dismissApprovalWaiting } from '@/lib/approval-required';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { MfaHost } from '@/test/mfa-host';

configure({ asyncUtilTimeout: 5_000 });

const CODE = '135790';
const matter = makeMatter({ matterName: 'Estate of A. Vale' });
const ANSWER: ApprovalRequiredResponse = {
  approvalRequired: true,
  code: 'APPROVAL_REQUIRED',
  message: APPROVAL_MSG.waiting,
  requestId: '0b0a4c1e-6f2d-4c3b-9e1a-2d3c4b5a6f70',
  expiresAt: '2026-12-01T12:00:00.000Z',
  preview: {
    action: 'VAULT_MATTER',
    title: 'Vault matter MAT-2026-001 Estate of A. Vale',
    summary: '2 files (2 versions, 4 KB) move into write-once storage. This cannot be undone.',
    cannotBeUndone: true,
    facts: [
      { label: 'Files', value: '2' },
      { label: 'Retention', value: '7 years' },
    ],
    files: [{ path: 'Probate/will.pdf', versionNumber: 1, sizeBytes: 2048, sha256: 'ab'.repeat(32) }],
    filesNotListed: 1,
    permissionsGained: ['Manage users'],
  },
};

afterEach(() => {
  resetMfaRequestsForTest();
  dismissApprovalWaiting();
});

describe('vaulting a matter that needs a second administrator', { timeout: 20_000 }, () => {
  it('is not reported as vaulted: the vault dialog closes and the waiting dialog shows what would happen', async () => {
    stubFetch(({ path, body }) => {
      if (path !== '/_api/vault/start') return Response.json({ error: 'not here' }, { status: 404 });
      if ((body as { mfaToken?: string }).mfaToken !== CODE) {
        return Response.json({ error: 'MFA_REQUIRED', code: 'MFA_REQUIRED', mfaRequired: true, message: MSG.mfaRequired }, { status: 401 });
      }
      return Response.json(ANSWER, { status: 202 });
    });
    const onOpenChange = vi.fn();
    const { user } = renderWithClient(
      <MemoryRouter>
        <VaultMatterDialog matter={matter} open onOpenChange={onOpenChange} />
        <ApprovalWaitingHost canOpenRequest />
        <MfaHost />
        <Toaster />
      </MemoryRouter>,
    );
    await user.click(within(screen.getByRole('dialog', { name: 'Vault Matter' })).getByRole('button', { name: 'Vault Matter' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.type(within(mfa).getByLabelText('Verification Code'), CODE);
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));

    const waiting = await screen.findByRole('dialog', { name: 'Waiting for approval' });
    expect(waiting).toHaveTextContent(APPROVAL_MSG.waiting);
    expect(within(waiting).getByText(ANSWER.preview.title)).toBeInTheDocument();
    expect(within(waiting).getByRole('note')).toHaveTextContent(APPROVAL_MSG.cannotBeUndone);
    // Said once, prominently: not repeated at the end of the summary.
    expect(within(waiting).getAllByText(APPROVAL_MSG.cannotBeUndone, { exact: false })).toHaveLength(1);
    const facts = within(waiting)
      .getAllByRole('term')
      .map((t) => `${t.textContent}: ${t.nextElementSibling?.textContent}`);
    expect(facts).toEqual(['Files: 2', 'Retention: 7 years']);
    expect(waiting).toHaveTextContent(`sha256 ${'ab'.repeat(32)}`);
    expect(waiting).toHaveTextContent('and 1 more not listed here.');
    expect(within(waiting).getByText('Manage users')).toBeInTheDocument();
    expect(within(waiting).getByRole('link', { name: 'View the request' })).toHaveAttribute('href', `/approvals/${ANSWER.requestId}`);

    // The calling screen does not treat it as a success.
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(screen.queryByRole('dialog', { name: 'Matter Vaulted' })).not.toBeInTheDocument();
    expect(screen.queryByText(VAULT_MSG.vaultStarted)).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Verification required' })).not.toBeInTheDocument();

    await user.click(within(waiting).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Waiting for approval' })).not.toBeInTheDocument());
  });
});
