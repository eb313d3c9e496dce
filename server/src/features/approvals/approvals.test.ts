/**
 * Four-eyes approvals as administrators and an attacker see them: the rules (two administrators first), a governed
 * call answering 202 with its preview and changing nothing, the requester unable to decide, approval with a fresh
 * code carrying the action out once, rejection with a reason, a request made void by a change since, expiry,
 * validation messages, permissions and another organization's ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_MSG } from '@strongroom/contracts';
import { currentTotp } from '../mfa/index.js';
import { createTestApp, waitForCount, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createFolder,
  createMatter,
  newOrganization,
  newOrganizationWithTotp,
  ok,
  uploadFile,
  type Member,
  type TotpMember,
  freshTotp,
  newTotpAdmin,
} from '../../../test/factories.js';

let t: TestApp;
let admin: TotpMember;
let second: TotpMember;
let user: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Four Eyes LLP');
  second = await newTotpAdmin(t, admin.organizationId, 'Sam Second');
  user = await addMember(t, admin.organizationId, 'user', { canVault: true }, 'Uma User');
  other = await newOrganization(t, 'Other Firm LLP');
});
afterAll(() => t.shutdown());

const totp = (m: TotpMember) => freshTotp(t, m);

async function emailCode(m: Member): Promise<string> {
  const before = t.sink.messages.length;
  ok(await m.client.post('/_api/auth/mfa-email', { userId: m.userId }));
  await waitForCount(t.sink, before + 1);
  return t.sink.lastCode(m.email);
}

async function setRules(actions: string[], extra: Record<string, unknown> = {}) {
  await t.ctx.db.deleteFrom('approvalSettings').where('organizationId', '=', admin.organizationId).execute();
  return ok(await admin.client.post('/_api/settings/approvals', { actions, ...extra, mfaToken: await totp(admin) }));
}

async function matterWithFiles(n = 2) {
  const matter = await createMatter(admin.client, { matterName: `Approval matter ${Math.random().toString(36).slice(2, 7)}` });
  for (let i = 0; i < n; i += 1) await uploadFile(t, admin.client, matter.id, `exhibit-${i}.pdf`, Buffer.from(`exhibit ${i}`));
  return matter;
}

const matterRow = (id: string) => t.ctx.db.selectFrom('matters').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the rules', () => {
  it('are off for a new organization and need a second active administrator before any is turned on', async () => {
    const solo = await newOrganization(t, 'Solo Practice');
    const read = ok(await solo.client.get('/_api/settings/approvals'));
    expect(read).toMatchObject({
      actions: [],
      expiryHours: 72,
      folderFileThreshold: 100,
      dispositionLeadDays: 30,
      activeAdministrators: 1,
    });
    const code = await emailCode(solo);
    const res = await solo.client.post('/_api/settings/approvals', { actions: ['VAULT_MATTER'], mfaToken: code });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(APPROVAL_MSG.secondApproverNeeded);
  });

  it('refuse unknown actions, duplicates and limits out of range with their messages', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await admin.client.post('/_api/settings/approvals', body);
      expect(res.statusCode).toBe(400);
      return res.json().error as string;
    };
    expect(await bad({ actions: ['LAUNCH_ROCKETS'] })).toBe(APPROVAL_MSG.invalidAction);
    expect(await bad({ actions: ['VAULT_MATTER', 'VAULT_MATTER'] })).toBe(APPROVAL_MSG.duplicateAction);
    expect(await bad({ actions: [], expiryHours: 0 })).toBe(APPROVAL_MSG.expiryRange);
    expect(await bad({ actions: [], folderFileThreshold: 0 })).toBe(APPROVAL_MSG.folderFilesRange);
    expect(await bad({ actions: [], dispositionLeadDays: 400 })).toBe(APPROVAL_MSG.dispositionLeadRange);
  });

  it('are read and changed by administrators only', async () => {
    expect((await user.client.get('/_api/settings/approvals')).statusCode).toBe(403);
    expect((await user.client.post('/_api/settings/approvals', { actions: [] })).statusCode).toBe(403);
  });

  it('once on, changing them needs a second approver too', async () => {
    await setRules(['VAULT_MATTER']);
    const res = await admin.client.post('/_api/settings/approvals', { actions: [], mfaToken: await totp(admin) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ approvalRequired: true, code: 'APPROVAL_REQUIRED', preview: { action: 'CHANGE_APPROVAL_POLICY' } });
    expect(ok(await admin.client.get('/_api/settings/approvals')).actions).toEqual(['VAULT_MATTER']);
    const code = await totp(second);
    const decided = ok(
      await second.client.post('/_api/approvals/decide', { requestId: res.json().requestId, decision: 'approve', mfaToken: code }),
    );
    expect(decided.request).toMatchObject({ status: 'approved' });
    expect(decided.request.executedAt).not.toBeNull();
    expect(ok(await admin.client.get('/_api/settings/approvals')).actions).toEqual([]);
  });
});

describe('two administrators, kept', () => {
  it('while any rule is on, a change that would leave fewer than two active administrators is refused', async () => {
    const lead = await newOrganizationWithTotp(t, 'Pair Practice');
    const partner = await addMember(t, lead.organizationId, 'admin', {}, 'Pia Partner');
    await t.ctx.db
      .insertInto('approvalSettings')
      .values({ organizationId: lead.organizationId, actions: JSON.stringify(['ARCHIVE_AUDIT_LOGS']) })
      .execute();
    const publicId = (await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', partner.userId).executeTakeFirstOrThrow())
      .publicId;
    const res = await lead.client.post('/_api/settings/users/deactivate', { userId: publicId, mfaToken: await totp(lead) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: APPROVAL_MSG.lastApprovers, details: { reason: 'SECOND_APPROVER_NEEDED' } });
    const demote = await lead.client.post('/_api/settings/users/role', {
      userId: publicId,
      newRole: 'user',
      reason: 'Stepping back from management',
      mfaToken: await totp(lead),
    });
    expect(demote.statusCode).toBe(409);
    const still = await t.ctx.db
      .selectFrom('users')
      .select(['role', 'isActive'])
      .where('id', '=', partner.userId)
      .executeTakeFirstOrThrow();
    expect(still).toEqual({ role: 'admin', isActive: true });
  });
});

describe('a governed vault', () => {
  it('answers 202 with the preview, changes nothing, and runs once when another administrator approves', async () => {
    await setRules(['VAULT_MATTER']);
    const matter = await matterWithFiles(2);
    const res = await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 7, mfaToken: await totp(admin) });
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toMatchObject({ approvalRequired: true, code: 'APPROVAL_REQUIRED', message: APPROVAL_MSG.waiting });
    expect(body.preview.cannotBeUndone).toBe(true);
    expect(body.preview.summary).toContain(APPROVAL_MSG.cannotBeUndone);
    expect(body.preview.facts).toEqual(
      expect.arrayContaining([
        { label: 'Files', value: '2' },
        { label: 'Retention', value: '7 years' },
      ]),
    );
    expect((await matterRow(matter.id)).isVaulted).toBe(false);
    const entries = await auditActions(t, admin.organizationId);
    expect(entries.filter((e) => e.targetId === matter.id).map((e) => e.action)).not.toContain('VAULT_MATTER');
    expect(entries.find((e) => e.action === 'APPROVAL_REQUESTED' && e.targetId === body.requestId)?.details).toMatchObject({
      action: 'VAULT_MATTER',
    });

    // The requester sees it and cannot decide it, even with a fresh code.
    const own = ok(await admin.client.get(`/_api/approvals/detail?requestId=${body.requestId}`)).request;
    expect(own).toMatchObject({ status: 'pending', canDecide: false, requestedBy: { userId: admin.userId } });
    const self = await admin.client.post('/_api/approvals/decide', {
      requestId: body.requestId,
      decision: 'approve',
      mfaToken: await totp(admin),
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toBe(APPROVAL_MSG.ownRequest);

    // The other administrator is told by mail, sees it waiting, and approving asks for a fresh code.
    await t.ctx.jobs.runDueJobs(['approval-mail']);
    await t.sink.waitFor(second.email, { subjectIncludes: 'waiting for your approval' });
    const mails = t.sink.messages.filter((m) => m.text.includes(`/approvals/${body.requestId}`));
    expect(mails.map((m) => m.to).flat()).toEqual([second.email]);
    const list = ok(await second.client.get('/_api/approvals/list?status=pending'));
    expect(list.waitingForYou).toBeGreaterThan(0);
    expect(list.requests.map((r: { requestId: string }) => r.requestId)).toContain(body.requestId);
    const noCode = await second.client.post('/_api/approvals/decide', { requestId: body.requestId, decision: 'approve' });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json().code).toBe('MFA_REQUIRED');
    const approved = ok(
      await second.client.post('/_api/approvals/decide', { requestId: body.requestId, decision: 'approve', mfaToken: await totp(second) }),
    );
    expect(approved.message).toBe(APPROVAL_MSG.approvedDone);
    expect(approved.request).toMatchObject({ status: 'approved', decidedBy: { userId: second.userId } });
    const row = await matterRow(matter.id);
    expect(row.isVaulted).toBe(true);
    // The vault is the requester's action, carried out once, with both people on record.
    const vaulted = await t.ctx.db
      .selectFrom('auditLogs')
      .select(['action', 'actorId', 'details'])
      .where('organizationId', '=', admin.organizationId)
      .where('action', 'in', ['VAULT_MATTER', 'APPROVAL_GRANTED', 'APPROVAL_EXECUTED'])
      .where('targetId', 'in', [matter.id, body.requestId])
      .execute();
    expect(vaulted.filter((e) => e.action === 'VAULT_MATTER')).toHaveLength(1);
    expect(vaulted.find((e) => e.action === 'VAULT_MATTER')?.actorId).toBe(admin.userId);
    expect(vaulted.find((e) => e.action === 'APPROVAL_GRANTED')?.actorId).toBe(second.userId);
    expect(vaulted.find((e) => e.action === 'APPROVAL_EXECUTED')?.details).toMatchObject({
      requesterId: admin.userId,
      approverId: second.userId,
    });

    // Decided once: a second decision is refused.
    const again = await second.client.post('/_api/approvals/decide', { requestId: body.requestId, decision: 'reject', reason: 'late' });
    expect(again.statusCode).toBe(409);
  });

  it('cannot be approved by another account enrolled in the requester’s own authenticator', async () => {
    await setRules(['VAULT_MATTER']);
    const matter = await matterWithFiles(1);
    const res = await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 3, mfaToken: await totp(admin) });
    expect(res.statusCode).toBe(202);
    const twin = await addMember(t, admin.organizationId, 'admin', {}, 'Ada Again');
    await t.ctx.db
      .updateTable('users')
      .set({ mfaPrimaryMethod: 'totp', totpSecret: admin.totpSecret, totpLastUsedStep: null })
      .where('id', '=', twin.userId)
      .execute();
    const code = currentTotp(admin.totpSecret);
    const decided = await twin.client.post('/_api/approvals/decide', {
      requestId: res.json().requestId,
      decision: 'approve',
      mfaToken: code,
    });
    expect(decided.statusCode).toBe(403);
    expect(decided.json().error).toBe(APPROVAL_MSG.samePerson);
    expect((await matterRow(matter.id)).isVaulted).toBe(false);
    await t.ctx.db.updateTable('users').set({ isActive: false }).where('id', '=', twin.userId).execute();
  });

  it('is rejected with a reason, and nothing happens', async () => {
    await setRules(['VAULT_MATTER']);
    const matter = await matterWithFiles(1);
    const res = await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 3, mfaToken: await totp(admin) });
    expect(res.statusCode).toBe(202);
    const noReason = await second.client.post('/_api/approvals/decide', { requestId: res.json().requestId, decision: 'reject' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe(APPROVAL_MSG.rejectReasonRequired);
    const rejected = ok(
      await second.client.post('/_api/approvals/decide', { requestId: res.json().requestId, decision: 'reject', reason: 'Not closed yet' }),
    );
    expect(rejected.request).toMatchObject({ status: 'rejected', decisionReason: 'Not closed yet' });
    expect((await matterRow(matter.id)).isVaulted).toBe(false);
  });

  it('is void when the matter changed since the request', async () => {
    await setRules(['VAULT_MATTER']);
    const matter = await matterWithFiles(1);
    const res = await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 3, mfaToken: await totp(admin) });
    expect(res.statusCode).toBe(202);
    await uploadFile(t, admin.client, matter.id, 'late-exhibit.pdf', Buffer.from('added after the request'));
    const decided = ok(
      await second.client.post('/_api/approvals/decide', {
        requestId: res.json().requestId,
        decision: 'approve',
        mfaToken: await totp(second),
      }),
    );
    expect(decided.request.status).toBe('void');
    expect(decided.request.voidReason).toContain('changed since the request');
    expect(decided.message).toBe(decided.request.voidReason);
    expect((await matterRow(matter.id)).isVaulted).toBe(false);
  });

  it('is refused at once, and not recorded, when the vault itself would refuse it', async () => {
    await setRules(['VAULT_MATTER']);
    const matter = await matterWithFiles(1);
    ok(
      await admin.client.post('/_api/matters/legal-hold', {
        matterId: matter.id,
        action: 'apply',
        reason: 'Litigation pending now',
        mfaToken: await totp(admin),
      }),
    );
    const before = await t.ctx.db.selectFrom('approvalRequests').select('id').where('organizationId', '=', admin.organizationId).execute();
    const res = await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 3, mfaToken: await totp(admin) });
    expect(res.statusCode).toBe(409);
    const after = await t.ctx.db.selectFrom('approvalRequests').select('id').where('organizationId', '=', admin.organizationId).execute();
    expect(after).toHaveLength(before.length);
  });

  it('expires after its time and can no longer be approved', async () => {
    await setRules(['VAULT_MATTER']);
    const matter = await matterWithFiles(1);
    const res = await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 3, mfaToken: await totp(admin) });
    const requestId = res.json().requestId as string;
    await t.ctx.db
      .updateTable('approvalRequests')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('id', '=', requestId)
      .execute();
    const late = await second.client.post('/_api/approvals/decide', { requestId, decision: 'approve', mfaToken: await totp(second) });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe(APPROVAL_MSG.expired);
    expect(ok(await second.client.get(`/_api/approvals/detail?requestId=${requestId}`)).request.status).toBe('expired');
    expect(
      ok(await second.client.get('/_api/approvals/list?status=expired')).requests.map((r: { requestId: string }) => r.requestId),
    ).toContain(requestId);
    expect((await matterRow(matter.id)).isVaulted).toBe(false);
  });
});

describe('other governed actions', () => {
  it('a grant of the administrator role previews the permissions gained and waits', async () => {
    await setRules(['GRANT_ADMIN_ACCESS']);
    const target = await addMember(t, admin.organizationId, 'user', {}, 'Pat Promoted');
    const publicId = (await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', target.userId).executeTakeFirstOrThrow())
      .publicId;
    const res = await admin.client.post('/_api/settings/users/role', {
      userId: publicId,
      newRole: 'admin',
      reason: 'Heads the litigation group now',
      mfaToken: await totp(admin),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().preview.permissionsGained).toEqual(expect.arrayContaining(['Administrator role']));
    expect((await t.ctx.db.selectFrom('users').select('role').where('id', '=', target.userId).executeTakeFirstOrThrow()).role).toBe('user');
    ok(
      await second.client.post('/_api/approvals/decide', {
        requestId: res.json().requestId,
        decision: 'approve',
        mfaToken: await totp(second),
      }),
    );
    expect((await t.ctx.db.selectFrom('users').select('role').where('id', '=', target.userId).executeTakeFirstOrThrow()).role).toBe(
      'admin',
    );
  });

  it('deleting a folder of more files than the threshold waits; a smaller one is deleted at once', async () => {
    await setRules(['DELETE_LARGE_FOLDER'], { folderFileThreshold: 2 });
    const matter = await createMatter(admin.client);
    const big = await createFolder(admin.client, matter.id, 'Discovery');
    for (let i = 0; i < 3; i += 1) await uploadFile(t, admin.client, matter.id, `doc-${i}.pdf`, Buffer.from(`doc ${i}`), big.id);
    const small = await createFolder(admin.client, matter.id, 'Notes');
    await uploadFile(t, admin.client, matter.id, 'note.pdf', Buffer.from('note'), small.id);
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: small.id }));
    const res = await admin.client.post('/_api/nodes/delete', { nodeId: big.id });
    expect(res.statusCode).toBe(202);
    expect(res.json().preview.facts).toEqual(expect.arrayContaining([{ label: 'Files', value: '3' }]));
    const node = await t.ctx.db.selectFrom('nodes').select('binEntryId').where('id', '=', big.id).executeTakeFirstOrThrow();
    expect(node.binEntryId).toBeNull();
  });
});

describe('each governed action, with the rule on and off', () => {
  type Case = {
    action: string;
    /** Makes the call; answers its response. */
    call(): Promise<{ statusCode: number; json(): { requestId?: string; preview?: { action: string } } }>;
    /** The state the call changes, read back. */
    state(): Promise<unknown>;
  };
  const flag = async () =>
    (
      await t.ctx.db
        .selectFrom('featureFlags')
        .select('enabled')
        .where('organizationId', '=', admin.organizationId)
        .where('flagName', '=', 'MFA_RETENTION_POLICIES')
        .executeTakeFirst()
    )?.enabled ?? true;
  const cases = async (): Promise<Case[]> => {
    const held = await matterWithFiles(1);
    ok(
      await admin.client.post('/_api/matters/legal-hold', {
        matterId: held.id,
        action: 'apply',
        reason: 'Preservation letter received',
        mfaToken: await totp(admin),
      }),
    );
    const leaving = await addMember(t, admin.organizationId, 'admin', {}, 'Lee Leaving');
    const leavingId = (await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', leaving.userId).executeTakeFirstOrThrow())
      .publicId;
    return [
      {
        action: 'REMOVE_LEGAL_HOLD',
        call: async () =>
          admin.client.post('/_api/matters/legal-hold', { matterId: held.id, action: 'remove', mfaToken: await totp(admin) }),
        state: async () => (await matterRow(held.id)).legalHold,
      },
      {
        action: 'DISABLE_MFA_FLAG',
        call: async () =>
          admin.client.post('/_api/settings/feature-flags', {
            flagsToUpdate: [{ flagName: 'MFA_RETENTION_POLICIES', enabled: false }],
            mfaToken: await totp(admin),
          }),
        state: flag,
      },
      {
        action: 'DEACTIVATE_ADMIN',
        call: async () => admin.client.post('/_api/settings/users/deactivate', { userId: leavingId, mfaToken: await totp(admin) }),
        state: async () =>
          (await t.ctx.db.selectFrom('users').select('isActive').where('id', '=', leaving.userId).executeTakeFirstOrThrow()).isActive,
      },
    ];
  };

  it('with the rule on: 202, nothing changed, then changed once another administrator approves', async () => {
    for (const c of await cases()) {
      await setRules([c.action]);
      const before = await c.state();
      const res = await c.call();
      expect(res.statusCode, c.action).toBe(202);
      expect(res.json().preview?.action).toBe(c.action);
      expect(await c.state(), c.action).toEqual(before);
      const decided = ok(
        await second.client.post('/_api/approvals/decide', {
          requestId: res.json().requestId,
          decision: 'approve',
          mfaToken: await totp(second),
        }),
      );
      expect(decided.request.executedAt, c.action).not.toBeNull();
      expect(await c.state(), c.action).not.toEqual(before);
    }
  });

  it('with the rule off: the call runs at once', async () => {
    await setRules(['ARCHIVE_AUDIT_LOGS']);
    // The safeguard the first test turned off is on again.
    ok(
      await admin.client.post('/_api/settings/feature-flags', {
        flagsToUpdate: [{ flagName: 'MFA_RETENTION_POLICIES', enabled: true }],
        mfaToken: await totp(admin),
      }),
    );
    for (const c of await cases()) {
      const before = await c.state();
      const res = await c.call();
      expect(res.statusCode, c.action).toBe(200);
      expect(await c.state(), c.action).not.toEqual(before);
    }
  });

  it('archiving audit logs waits with the rule on; a dry run never does', async () => {
    await setRules(['ARCHIVE_AUDIT_LOGS']);
    const dry = await admin.client.post('/_api/system/archive-audit-logs', { dryRun: true, mfaToken: await totp(admin) });
    expect(dry.statusCode).toBe(200);
    const res = await admin.client.post('/_api/system/archive-audit-logs', { dryRun: false, mfaToken: await totp(admin) });
    expect(res.statusCode).toBe(202);
    expect(res.json().preview).toMatchObject({ action: 'ARCHIVE_AUDIT_LOGS', cannotBeUndone: true });
    const runs = await t.ctx.db.selectFrom('auditArchivalRuns').select('id').where('organizationId', '=', admin.organizationId).execute();
    expect(runs).toEqual([]);
  });
});

describe('who may see and decide', () => {
  it('members who are not administrators see only their own requests and decide none', async () => {
    await setRules(['VAULT_MATTER']);
    const matter = await createMatter(user.client);
    const res = await user.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 2, mfaToken: await emailCode(user) });
    expect(res.statusCode).toBe(202);
    const mine = ok(await user.client.get('/_api/approvals/list?status=pending'));
    expect(mine.requests.every((r: { requestedBy: { userId: number } }) => r.requestedBy.userId === user.userId)).toBe(true);
    const decide = await user.client.post('/_api/approvals/decide', { requestId: res.json().requestId, decision: 'reject', reason: 'no' });
    expect(decide.statusCode).toBe(403);
    expect(decide.json().error).toBe(APPROVAL_MSG.adminsOnly);
  });

  it("another organization's request answers 404, as does an unknown one", async () => {
    await setRules(['VAULT_MATTER']);
    const matter = await matterWithFiles(1);
    const res = await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 3, mfaToken: await totp(admin) });
    const requestId = res.json().requestId as string;
    expect((await other.client.get(`/_api/approvals/detail?requestId=${requestId}`)).statusCode).toBe(404);
    const code = await emailCode(other);
    const foreign = await other.client.post('/_api/approvals/decide', { requestId, decision: 'approve', mfaToken: code });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(APPROVAL_MSG.notFound);
    expect(ok(await other.client.get('/_api/approvals/list?status=pending')).requests).toEqual([]);
  });

  it('refuses malformed ids and statuses with their messages', async () => {
    const bad = await second.client.get('/_api/approvals/detail?requestId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(APPROVAL_MSG.invalidRequestId);
    const status = await second.client.get('/_api/approvals/list?status=maybe');
    expect(status.statusCode).toBe(400);
    expect(status.json().error).toBe(APPROVAL_MSG.invalidStatus);
    const decision = await second.client.post('/_api/approvals/decide', { requestId: crypto.randomUUID(), decision: 'perhaps' });
    expect(decision.statusCode).toBe(400);
    expect(decision.json().error).toBe(APPROVAL_MSG.invalidDecision);
    expect((await second.client.get('/_api/approvals/list')).statusCode).toBe(200);
  });
});
