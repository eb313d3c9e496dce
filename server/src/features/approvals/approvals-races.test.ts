/**
 * Two people at once: two administrators approving the same request together, and the approver's own call racing
 * the execute job, carry the action out exactly once; a request approved and rejected at once gets one decision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  createMatter,
  newOrganizationWithTotp,
  ok,
  uploadFile,
  type TotpMember,
  freshTotp,
  newTotpAdmin,
} from '../../../test/factories.js';
import { executeApproval } from './approval-decisions.service.js';

let t: TestApp;
let admin: TotpMember;
let b: TotpMember;
let c: TotpMember;

const totp = (m: TotpMember) => freshTotp(t, m);

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Racing Approvals LLP');
  b = await newTotpAdmin(t, admin.organizationId, 'Bea Approver');
  c = await newTotpAdmin(t, admin.organizationId, 'Cal Approver');
  ok(await admin.client.post('/_api/settings/approvals', { actions: ['VAULT_MATTER'], mfaToken: await totp(admin) }));
});
afterAll(() => t.shutdown());

async function vaultRequest(): Promise<{ matterId: string; requestId: string }> {
  const matter = await createMatter(admin.client);
  await uploadFile(t, admin.client, matter.id, 'Pleading.pdf', Buffer.from('pleading'));
  const res = await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 4, mfaToken: await totp(admin) });
  expect(res.statusCode).toBe(202);
  return { matterId: matter.id, requestId: res.json().requestId };
}

const vaultEntries = async (matterId: string) =>
  t.ctx.db.selectFrom('auditLogs').select('id').where('action', '=', 'VAULT_MATTER').where('targetId', '=', matterId).execute();

describe('racing decisions', () => {
  it('two administrators approving at once: one approval, one vault', async () => {
    const { matterId, requestId } = await vaultRequest();
    const [codeB, codeC] = [await totp(b), await totp(c)];
    const answers = await Promise.all([
      b.client.post('/_api/approvals/decide', { requestId, decision: 'approve', mfaToken: codeB }),
      c.client.post('/_api/approvals/decide', { requestId, decision: 'approve', mfaToken: codeC }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await vaultEntries(matterId)).toHaveLength(1);
    const executed = await t.ctx.db
      .selectFrom('auditLogs')
      .select('id')
      .where('action', '=', 'APPROVAL_EXECUTED')
      .where('targetId', '=', requestId)
      .execute();
    expect(executed).toHaveLength(1);
  });

  it('an approval and a rejection at once: one decision stands', async () => {
    const { matterId, requestId } = await vaultRequest();
    const code = await totp(b);
    const answers = await Promise.all([
      b.client.post('/_api/approvals/decide', { requestId, decision: 'approve', mfaToken: code }),
      c.client.post('/_api/approvals/decide', { requestId, decision: 'reject', reason: 'Wrong matter' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const status = (await t.ctx.db.selectFrom('approvalRequests').select('status').where('id', '=', requestId).executeTakeFirstOrThrow())
      .status;
    expect(await vaultEntries(matterId)).toHaveLength(status === 'approved' ? 1 : 0);
  });

  it('the execute job and other callers racing an approved request carry it out once', async () => {
    const { matterId, requestId } = await vaultRequest();
    // Approved as the approval records it, not yet carried out (as after a crash).
    await t.ctx.db
      .updateTable('approvalRequests')
      .set({ status: 'approved', decidedBy: b.userId, decidedAt: new Date() })
      .where('id', '=', requestId)
      .execute();
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => executeApproval(t.ctx, admin.organizationId, requestId)));
    expect(outcomes.every((o) => o === 'done')).toBe(true);
    expect(await vaultEntries(matterId)).toHaveLength(1);
  });
});
