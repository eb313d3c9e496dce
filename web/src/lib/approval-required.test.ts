import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_MSG, MSG, type ApprovalRequiredResponse } from '@strongroom/contracts';
import { apiRequest } from './api-client';
import { dismissApprovalWaiting, getApprovalWaiting, isApprovalRequiredError, readApprovalRequired } from './approval-required';
import { getCurrentMfaRequest, resetMfaRequestsForTest, subscribeMfaRequests, type MfaRequest } from './mfa-bridge';
import { getSystemMfaToken, storeSystemMfaToken, SYSTEM_MFA_STORAGE_KEY } from './system-mfa';
import { stubFetch } from '@/test/fetch-stub';

const ANSWER: ApprovalRequiredResponse = {
  approvalRequired: true,
  code: 'APPROVAL_REQUIRED',
  message: APPROVAL_MSG.waiting,
  requestId: '0b0a4c1e-6f2d-4c3b-9e1a-2d3c4b5a6f70',
  expiresAt: '2026-12-01T12:00:00.000Z',
  preview: {
    action: 'VAULT_MATTER',
    title: 'Vault matter 2026-0001 Acme v. Beta',
    summary: '2 files move into write-once storage. This cannot be undone.',
    cannotBeUndone: true,
    facts: [{ label: 'Files', value: '2' }],
  },
};

const mfaRequired = () =>
  Response.json(
    { error: 'MFA_REQUIRED', code: 'MFA_REQUIRED', mfaRequired: true, message: MSG.mfaRequired, details: { operation: 'VAULT_MATTER' } },
    { status: 401 },
  );

function nextMfaRequest(): Promise<MfaRequest> {
  return new Promise((resolve) => {
    const now = getCurrentMfaRequest();
    if (now) return resolve(now);
    const stop = subscribeMfaRequests(() => {
      const r = getCurrentMfaRequest();
      if (r) {
        stop();
        resolve(r);
      }
    });
  });
}

afterEach(() => {
  resetMfaRequestsForTest();
  dismissApprovalWaiting();
  sessionStorage.clear();
});

describe('a governed call answered 202 APPROVAL_REQUIRED', () => {
  it('is never a success: the call rejects with the request, and the waiting dialog is told', async () => {
    stubFetch(() => Response.json(ANSWER, { status: 202 }));
    const error = await apiRequest('/_api/vault/start', { body: { matterId: 'm', retentionYears: 7 } }).catch((e: unknown) => e);
    expect(isApprovalRequiredError(error)).toBe(true);
    expect(isApprovalRequiredError(error) && error.answer.requestId).toBe(ANSWER.requestId);
    expect(isApprovalRequiredError(error) && error.status).toBe(202);
    expect(getApprovalWaiting()).toEqual(ANSWER);
  });

  it('after a code: closes the code dialog (the code was right) and rejects with the request', async () => {
    const calls = stubFetch(({ body }) =>
      (body as { mfaToken?: string }).mfaToken === '123456' ? Response.json(ANSWER, { status: 202 }) : mfaRequired(),
    );
    const pending = apiRequest('/_api/vault/start', { body: { matterId: 'm', retentionYears: 7 } }).catch((e: unknown) => e);
    const prompt = await nextMfaRequest();
    await prompt.submit('123456');
    expect(getCurrentMfaRequest()).toBeNull();
    expect(isApprovalRequiredError(await pending)).toBe(true);
    expect(calls.map((c) => c.body)).toEqual([
      { matterId: 'm', retentionYears: 7 },
      { matterId: 'm', retentionYears: 7, mfaToken: '123456' },
    ]);
    expect(getApprovalWaiting()?.requestId).toBe(ANSWER.requestId);
  });

  it('is told apart from other answers: a 200, or a 202 without a request, is not one', () => {
    expect(readApprovalRequired(200, ANSWER)).toBeNull();
    expect(readApprovalRequired(202, { accepted: true })).toBeNull();
    expect(readApprovalRequired(202, ANSWER)).toEqual(ANSWER);
  });
});

describe('approving another administrator’s request', () => {
  it('never keeps a token and never reuses one, whatever is kept for other operations', () => {
    const now = Date.now();
    storeSystemMfaToken('MFA_ORGANIZATION_SETTINGS', 'org-token', undefined, now);
    storeSystemMfaToken('APPROVE_REQUEST', 'approve-token', undefined, now);
    expect(getSystemMfaToken('APPROVE_REQUEST', now + 1000)).toBeNull();
    expect(sessionStorage.getItem(SYSTEM_MFA_STORAGE_KEY)).not.toContain('approve-token');
    expect(getSystemMfaToken('MFA_ORGANIZATION_SETTINGS', now + 1000)).toBe('org-token');
  });
});
