import { configure, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPROVAL_MSG, DISPOSITION_MSG, type DispositionItem } from '@strongroom/contracts';
import { getApprovalWaiting } from '@/lib/approval-required';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { DecideDialog } from './decide-dialog';

configure({ asyncUtilTimeout: 5_000 });

const item: DispositionItem = {
  reviewId: '11111111-1111-4111-8111-111111111111',
  matterId: '22222222-2222-4222-8222-222222222222',
  matterName: 'Harbour Lease Dispute',
  matterNumber: 'MAT-2026-001',
  clientName: 'Harbour Holdings',
  retentionExpiresAt: '2026-12-08T10:00:00.000Z',
  daysLeft: 10,
  status: 'due',
  statusLabel: 'Due for review',
  queuedAt: '2026-11-28T10:00:00.000Z',
  files: 2,
  versions: 3,
  bytes: 8200,
  legalHold: false,
  decidedBy: null,
  decidedAt: null,
  decisionReason: null,
  approvedBy: [],
  approvalRequestId: null,
  canDecide: true,
};

let answer: () => Response;
let calls: FetchCall[];
beforeEach(() => {
  calls = stubFetch(({ path }) => (path === '/_api/disposition/decide' ? answer() : Response.json({ error: 'not here' }, { status: 404 })));
});
afterEach(() => resetMfaRequestsForTest());

function open(decision: 'destroy' | 'extend' | 'hold') {
  const onOpenChange = vi.fn();
  const r = renderWithClient(
    <>
      <DecideDialog item={item} decision={decision} onOpenChange={onOpenChange} />
      <MfaHost />
      <Toaster />
    </>,
  );
  return { ...r, onOpenChange };
}

describe('the disposition decision dialog', { timeout: 20_000 }, () => {
  it('closes without success when the server answers 202 (the app’s waiting dialog says so)', async () => {
    answer = () =>
      Response.json(
        {
          approvalRequired: true,
          code: 'APPROVAL_REQUIRED',
          message: APPROVAL_MSG.waiting,
          requestId: '33333333-3333-4333-8333-333333333333',
          expiresAt: '2026-12-01T10:00:00.000Z',
          preview: { action: 'DESTROY_AT_RETENTION_END', title: 't', summary: 's', cannotBeUndone: true, facts: [] },
        },
        { status: 202 },
      );
    const { user, onOpenChange } = open('destroy');
    const dialog = screen.getByRole('dialog', { name: 'Approve destruction' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Retention met');
    await user.click(within(dialog).getByRole('button', { name: 'Approve destruction' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(getApprovalWaiting()?.requestId).toBe('33333333-3333-4333-8333-333333333333');
    expect(screen.queryByText(DISPOSITION_MSG.approved)).not.toBeInTheDocument();
  });

  it('says what a destruction removes and that it cannot be undone, and shows success when it is approved', async () => {
    answer = () => Response.json({ success: true, message: DISPOSITION_MSG.approved, item: { ...item, status: 'approved' } });
    const { user, onOpenChange } = open('destroy');
    const dialog = screen.getByRole('dialog', { name: 'Approve destruction' });
    expect(dialog).toHaveTextContent('2 files (3 versions');
    expect(dialog).toHaveTextContent(APPROVAL_MSG.cannotBeUndone);
    const submit = within(dialog).getByRole('button', { name: 'Approve destruction' });
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason'), 'Retention met');
    await user.click(submit);
    expect(await screen.findByText(DISPOSITION_MSG.approved)).toBeInTheDocument();
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(calls.find((c) => c.path === '/_api/disposition/decide')?.body).toEqual({
      matterId: item.matterId,
      decision: 'destroy',
      reason: 'Retention met',
    });
  });

  it('asks an extension for a later date and sends it', async () => {
    answer = () => Response.json({ success: true, message: DISPOSITION_MSG.extended('2027-12-08'), item: { ...item, status: 'extended' } });
    const { user } = open('extend');
    const dialog = screen.getByRole('dialog', { name: 'Extend retention' });
    const date = within(dialog).getByLabelText('Keep until');
    expect(date).toHaveValue('2027-12-08');
    await user.type(within(dialog).getByLabelText('Reason'), 'New claim possible');
    await user.click(within(dialog).getByRole('button', { name: 'Extend retention' }));
    expect(await screen.findByText(DISPOSITION_MSG.extended('2027-12-08'))).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/_api/disposition/decide')?.body).toMatchObject({ decision: 'extend', retainUntil: '2027-12-08' });
  });
});
