import { configure, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_MSG, MSG, type ApprovalRequestView } from '@strongroom/contracts';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { ApprovalDetail } from './approval-detail';

configure({ asyncUtilTimeout: 5_000 });

const CODE = '246810';
const ADA = { userId: 1, name: 'Ada Admin', email: 'ada@firm.test' };
const BEN = { userId: 2, name: 'Ben Second', email: 'ben@firm.test' };

function request(overrides: Partial<ApprovalRequestView> = {}): ApprovalRequestView {
  return {
    requestId: '0b0a4c1e-6f2d-4c3b-9e1a-2d3c4b5a6f70',
    action: 'VAULT_MATTER',
    actionLabel: 'Vault a matter',
    status: 'pending',
    requestedBy: ADA,
    requestedAt: '2026-11-28T10:00:00.000Z',
    reason: 'Closing the file',
    call: { method: 'POST', path: '/_api/vault/start', parameters: { matterId: 'm-1', retentionYears: 7 } },
    preview: {
      action: 'VAULT_MATTER',
      title: 'Vault matter 2026-0001 Acme v. Beta',
      summary: '2 files move into write-once storage. This cannot be undone.',
      cannotBeUndone: true,
      facts: [
        { label: 'Files', value: '2' },
        { label: 'Retention', value: '7 years' },
      ],
    },
    expiresAt: '2026-12-01T10:00:00.000Z',
    decidedBy: null,
    decidedAt: null,
    decisionReason: null,
    voidReason: null,
    executedAt: null,
    canDecide: true,
    ...overrides,
  };
}

let calls: FetchCall[] = [];
const decisions = () => calls.filter((c) => c.path === '/_api/approvals/decide').map((c) => c.body);

function serve() {
  calls = stubFetch(({ path, body }) => {
    if (path !== '/_api/approvals/decide') return Response.json({ error: 'not here' }, { status: 404 });
    const b = body as { decision: string; reason?: string; mfaToken?: string };
    if (b.decision === 'approve' && b.mfaToken !== CODE) {
      return Response.json(
        {
          error: 'MFA_REQUIRED',
          code: 'MFA_REQUIRED',
          mfaRequired: true,
          message: MSG.mfaRequired,
          details: { operation: 'APPROVE_REQUEST' },
        },
        { status: 401 },
      );
    }
    const decided =
      b.decision === 'approve'
        ? request({
            status: 'approved',
            decidedBy: BEN,
            decidedAt: '2026-11-28T11:00:00.000Z',
            executedAt: '2026-11-28T11:00:01.000Z',
            canDecide: false,
          })
        : request({
            status: 'rejected',
            decidedBy: BEN,
            decidedAt: '2026-11-28T11:00:00.000Z',
            decisionReason: b.reason ?? null,
            canDecide: false,
          });
    return Response.json({
      success: true,
      message: b.decision === 'approve' ? APPROVAL_MSG.approvedDone : APPROVAL_MSG.rejected,
      request: decided,
    });
  });
}

function show(r: ApprovalRequestView, viewerId = BEN.userId) {
  serve();
  return renderWithClient(
    <MemoryRouter>
      <ApprovalDetail request={r} viewerId={viewerId} />
      <MfaHost />
      <Toaster />
    </MemoryRouter>,
  );
}

afterEach(() => resetMfaRequestsForTest());

describe('deciding a request', { timeout: 20_000 }, () => {
  it('shows the preview, the requester’s reason and the call', () => {
    show(request());
    expect(screen.getByRole('note')).toHaveTextContent(APPROVAL_MSG.cannotBeUndone);
    expect(screen.getByText('Vault matter 2026-0001 Acme v. Beta')).toBeInTheDocument();
    expect(screen.getByText('Closing the file')).toBeInTheDocument();
    expect(screen.getByText('POST /_api/vault/start')).toBeInTheDocument();
    expect(screen.getByText('retentionYears')).toBeInTheDocument();
  });

  it('refuses to reject without a reason, before anything is sent', async () => {
    const { user } = show(request());
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(APPROVAL_MSG.rejectReasonRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true');
    expect(decisions()).toEqual([]);
  });

  it('refuses a reason over the limit', async () => {
    const { user } = show(request());
    await user.click(screen.getByLabelText('Reason'));
    await user.paste('x'.repeat(2001));
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(APPROVAL_MSG.reasonTooLong)).toBeInTheDocument();
    expect(decisions()).toEqual([]);
  });

  it('rejects with the reason given', async () => {
    const { user } = show(request());
    await user.type(screen.getByLabelText('Reason'), '  Not agreed with the client  ');
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(APPROVAL_MSG.rejected)).toBeInTheDocument();
    expect(decisions()).toEqual([{ requestId: request().requestId, decision: 'reject', reason: 'Not agreed with the client' }]);
  });

  it('approves without a reason, only with a fresh code asked for in the code dialog', async () => {
    const { user } = show(request());
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.type(within(mfa).getByLabelText('Verification Code'), CODE);
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(APPROVAL_MSG.approvedDone)).toBeInTheDocument();
    expect(decisions()).toEqual([
      { requestId: request().requestId, decision: 'approve' },
      { requestId: request().requestId, decision: 'approve', mfaToken: CODE },
    ]);
  });

  it('a reason error from rejecting does not stop an approval', async () => {
    const { user } = show(request());
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(APPROVAL_MSG.rejectReasonRequired)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await screen.findByRole('dialog', { name: 'Verification required' });
    await waitFor(() => expect(decisions()).toEqual([{ requestId: request().requestId, decision: 'approve' }]));
    expect(screen.queryByText(APPROVAL_MSG.rejectReasonRequired)).not.toBeInTheDocument();
  });

  it('closing the code dialog says a code is needed, without alarm', async () => {
    const { user } = show(request());
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.click(within(mfa).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(MSG.mfaRequired)).toBeInTheDocument();
  });

  it('the requester sees why they cannot decide, and no buttons', () => {
    show(request({ canDecide: false }), ADA.userId);
    expect(screen.getByText(APPROVAL_MSG.ownRequest)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
  });

  it('a decided request shows who decided, when and why, and a void one why it is void', () => {
    show(
      request({
        status: 'void',
        canDecide: false,
        decidedBy: BEN,
        decidedAt: '2026-11-28T11:00:00.000Z',
        voidReason: APPROVAL_MSG.voided('the matter changed since the request.'),
      }),
    );
    expect(screen.getByText('Ben Second')).toBeInTheDocument();
    expect(screen.getByText(APPROVAL_MSG.voided('the matter changed since the request.'))).toBeInTheDocument();
    expect(screen.getByText(APPROVAL_MSG.alreadyDecided('void'))).toBeInTheDocument();
  });
});
