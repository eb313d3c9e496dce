import { configure, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_MSG, type ApprovalRequiredResponse, type ApprovalSettingsResponse } from '@strongroom/contracts';
import { dismissApprovalWaiting, getApprovalWaiting } from '@/lib/approval-required';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { ApprovalRulesCard } from './approval-rules-card';

configure({ asyncUtilTimeout: 5_000 });

const settings = (overrides: Partial<ApprovalSettingsResponse> = {}): ApprovalSettingsResponse => ({
  actions: [],
  expiryHours: 72,
  folderFileThreshold: 100,
  dispositionLeadDays: 30,
  activeAdministrators: 2,
  ...overrides,
});

const WAITING: ApprovalRequiredResponse = {
  approvalRequired: true,
  code: 'APPROVAL_REQUIRED',
  message: APPROVAL_MSG.waiting,
  requestId: '0b0a4c1e-6f2d-4c3b-9e1a-2d3c4b5a6f70',
  expiresAt: '2026-12-01T12:00:00.000Z',
  preview: {
    action: 'CHANGE_APPROVAL_POLICY',
    title: 'Change the approval rules',
    summary: 'Rules change.',
    cannotBeUndone: false,
    facts: [],
  },
};

let calls: FetchCall[] = [];
const saves = () => calls.filter((c) => c.method === 'POST').map((c) => c.body);

function show(stored: ApprovalSettingsResponse, onSave: () => Response) {
  calls = stubFetch(({ method }) => (method === 'POST' ? onSave() : Response.json(stored)));
  return renderWithClient(
    <>
      <ApprovalRulesCard />
      <Toaster />
    </>,
  );
}

afterEach(() => {
  resetMfaRequestsForTest();
  dismissApprovalWaiting();
});

describe('the approval rules card', { timeout: 20_000 }, () => {
  it('with one administrator: everything is disabled, and it says why', async () => {
    show(settings({ activeAdministrators: 1 }), () => Response.json({}));
    const box = await screen.findByRole('checkbox', { name: 'Vault a matter' });
    expect(box).toBeDisabled();
    expect(screen.getByText(APPROVAL_MSG.secondApproverNeeded, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Needs a second administrator' })).toHaveAccessibleDescription(
      expect.stringContaining(APPROVAL_MSG.secondApproverNeeded),
    );
    expect(screen.getByRole('button', { name: 'Save approval rules' })).toBeDisabled();
  });

  it('checks the numbers before sending', async () => {
    const { user } = show(settings(), () => Response.json({}));
    const hours = await screen.findByLabelText('Requests expire after (hours)');
    await user.clear(hours);
    await user.type(hours, '9999');
    await user.click(screen.getByRole('button', { name: 'Save approval rules' }));
    expect(await screen.findByText(APPROVAL_MSG.expiryRange)).toBeInTheDocument();
    expect(saves()).toEqual([]);
  });

  it('saves the actions ticked', async () => {
    const saved = settings({ actions: ['VAULT_MATTER'] });
    const { user } = show(settings(), () => Response.json({ success: true, message: APPROVAL_MSG.policySaved, settings: saved }));
    await user.click(await screen.findByRole('checkbox', { name: 'Vault a matter' }));
    await user.click(screen.getByRole('button', { name: 'Save approval rules' }));
    expect(await screen.findByText(APPROVAL_MSG.policySaved)).toBeInTheDocument();
    expect(saves()).toEqual([{ actions: ['VAULT_MATTER'], expiryHours: 72, folderFileThreshold: 100, dispositionLeadDays: 30 }]);
  });

  it('a change that needs approval (202) is not saved: the rules in force show again and it says the change waits', async () => {
    const { user } = show(settings({ actions: ['VAULT_MATTER'] }), () => Response.json(WAITING, { status: 202 }));
    await user.click(await screen.findByRole('checkbox', { name: 'Vault a matter' }));
    await user.type(screen.getByLabelText('Reason (optional)'), 'Vaulting is routine now');
    await user.click(screen.getByRole('button', { name: 'Save approval rules' }));
    const card = screen.getByRole('region', { name: 'Approvals' });
    expect(await within(card).findByText(APPROVAL_MSG.waiting)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Vault a matter' })).toBeChecked());
    expect(saves()).toHaveLength(1);
    expect(getApprovalWaiting()?.requestId).toBe(WAITING.requestId);
    expect(saves()).toEqual([
      { actions: [], expiryHours: 72, folderFileThreshold: 100, dispositionLeadDays: 30, reason: 'Vaulting is routine now' },
    ]);
  });
});
