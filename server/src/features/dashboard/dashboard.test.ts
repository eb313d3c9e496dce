/**
 * The dashboard's calls as each kind of person sees them: an administrator, a user without canViewVaulted, a
 * guest, and another organization's administrator. Figures are real: uploading and vaulting change Storage Used
 * by the exact sizes, an invitation raises Pending Invites, and vaulted matters stay out of the recent matters
 * of anyone without canViewVaulted.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_MSG } from '@strongroom/contracts';
import { currentTotp } from '../mfa/index.js';
import { createTestApp, uniqueEmail, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  createMatter,
  newOrganizationWithTotp,
  ok,
  setMatterFlags,
  systemMfaToken,
  uploadFile,
  type Member,
  type TotpMember,
} from '../../../test/factories.js';

const DAY = 24 * 60 * 60 * 1000;
/** The vault's durable transfer job, run here by name (the vault feature's internals stay its own). */
const VAULT_TRANSFER_JOB = 'vault-transfer';

let t: TestApp;
let admin: TotpMember;
let plain: Member;
let viewer: Member;
let guest: Member;
let inviter: Member;
let stranger: TotpMember;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Hale & Partners LLP');
  plain = await addMember(t, admin.organizationId, 'user', {
    canViewVaulted: false,
    canUpload: true,
    canInviteUsers: false,
    canManageUsers: false,
  });
  viewer = await addMember(t, admin.organizationId, 'user', { canViewVaulted: true });
  guest = await addMember(t, admin.organizationId, 'guest');
  inviter = await addMember(t, admin.organizationId, 'user', { canInviteUsers: true, canManageUsers: false });
  stranger = await newOrganizationWithTotp(t, 'Other Firm LLP');
});
afterAll(() => t.shutdown());

const storage = async (m: Member) => ok(await m.client.get('/_api/dashboard/storage'));

describe('GET /_api/dashboard/storage', () => {
  it('sums stored bytes, hot and vaulted apart, changed by uploads and vaulting by the exact sizes', async () => {
    const before = await storage(admin);
    expect(before).toEqual({ hotBytes: 0, vaultedBytes: 0, totalBytes: 0, quotaBytes: null });
    const matter = await createMatter(admin.client, { matterName: 'Estate of Ivor Quill' });
    const a = randomBytes(1234);
    const b = randomBytes(77);
    await uploadFile(t, admin.client, matter.id, 'will.pdf', a);
    await uploadFile(t, admin.client, matter.id, 'letter.pdf', b);
    expect(await storage(admin)).toEqual({ hotBytes: 1311, vaultedBytes: 0, totalBytes: 1311, quotaBytes: null });

    await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
    ok(await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 7, mfaToken: currentTotp(admin.totpSecret) }));
    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 1, failed: 0 });
    expect(await storage(admin)).toEqual({ hotBytes: 0, vaultedBytes: 1311, totalBytes: 1311, quotaBytes: null });

    // Another organization's figures are its own.
    expect(await storage(stranger)).toEqual({ hotBytes: 0, vaultedBytes: 0, totalBytes: 0, quotaBytes: null });
  });

  it("answers the organization's quota once one is set", async () => {
    await t.ctx.db.updateTable('organizations').set({ storageQuotaBytes: 5_000_000 }).where('id', '=', admin.organizationId).execute();
    expect((await storage(admin)).quotaBytes).toBe(5_000_000);
    await t.ctx.db.updateTable('organizations').set({ storageQuotaBytes: null }).where('id', '=', admin.organizationId).execute();
  });

  it('is refused to anyone but administrators', async () => {
    for (const m of [plain, viewer, guest, inviter]) {
      const r = await m.client.get('/_api/dashboard/storage');
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toBe(DASHBOARD_MSG.storageDenied);
    }
  });
});

describe('GET /_api/dashboard/users', () => {
  it('counts active users and open invitations; an invitation raises Pending Invites by one', async () => {
    const before = ok(await admin.client.get('/_api/dashboard/users'));
    expect(before).toEqual({ activeUsers: 5, pendingInvites: 0 });
    const token = await systemMfaToken(admin, 'MFA_USER_MANAGEMENT');
    ok(await admin.client.post('/_api/settings/users/invite', { email: uniqueEmail('invitee'), role: 'user', mfaToken: token }));
    expect(ok(await admin.client.get('/_api/dashboard/users'))).toEqual({ activeUsers: 5, pendingInvites: 1 });
    // An inviter sees the same figures; another organization sees its own.
    expect(ok(await inviter.client.get('/_api/dashboard/users'))).toEqual({ activeUsers: 5, pendingInvites: 1 });
    expect(ok(await stranger.client.get('/_api/dashboard/users'))).toEqual({ activeUsers: 1, pendingInvites: 0 });
  });

  it('leaves expired and revoked invitations out', async () => {
    await t.ctx.db
      .updateTable('invitations')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('organizationId', '=', admin.organizationId)
      .execute();
    expect(ok(await admin.client.get('/_api/dashboard/users')).pendingInvites).toBe(0);
  });

  it('is refused to people who neither manage nor invite users', async () => {
    for (const m of [plain, guest]) {
      const r = await m.client.get('/_api/dashboard/users');
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toBe(DASHBOARD_MSG.usersDenied);
    }
  });
});

describe('GET /_api/dashboard/vault-status', () => {
  it('counts vaulted matters, legal holds and retention ending in 1 to 90 days, listing those with their dates', async () => {
    const soon = await createMatter(admin.client, { matterName: 'Soon Ending' });
    const tomorrowOnly = await createMatter(admin.client, { matterName: 'Ends Today' });
    const later = await createMatter(admin.client, { matterName: 'Ends Later' });
    const held = await createMatter(admin.client, { matterName: 'Held Open Matter' });
    for (const m of [soon, tomorrowOnly, later]) await setMatterFlags(t, m.id, { vaulted: true });
    await setMatterFlags(t, held.id, { legalHold: true });
    const soonDate = new Date(Date.now() + 30 * DAY);
    await t.ctx.db.updateTable('matters').set({ retentionExpiresAt: soonDate }).where('id', '=', soon.id).execute();
    await t.ctx.db
      .updateTable('matters')
      .set({ retentionExpiresAt: new Date(Date.now() + DAY / 2) })
      .where('id', '=', tomorrowOnly.id)
      .execute();
    await t.ctx.db
      .updateTable('matters')
      .set({ retentionExpiresAt: new Date(Date.now() + 120 * DAY) })
      .where('id', '=', later.id)
      .execute();

    const status = ok(await admin.client.get('/_api/dashboard/vault-status'));
    // The matter vaulted by the storage test (legal hold applied at vaulting) counts too.
    expect(status.vaultedMatters).toBe(4);
    expect(status.retentionAlerts).toBe(1);
    expect(status.alerts).toEqual([{ matterId: soon.id, matterName: 'Soon Ending', retentionExpiresAt: soonDate.toISOString() }]);
    expect(status.legalHolds).toBeGreaterThanOrEqual(1);
    expect(ok(await viewer.client.get('/_api/dashboard/vault-status'))).toEqual(status);
    expect(ok(await stranger.client.get('/_api/dashboard/vault-status'))).toEqual({
      vaultedMatters: 0,
      retentionAlerts: 0,
      legalHolds: 0,
      alerts: [],
    });
  });

  it('is refused to users without canViewVaulted and to guests', async () => {
    const r = await plain.client.get('/_api/dashboard/vault-status');
    expect(r.statusCode).toBe(403);
    expect(r.json().error).toBe(DASHBOARD_MSG.vaultStatusDenied);
    expect((await guest.client.get('/_api/dashboard/vault-status')).statusCode).toBe(403);
  });
});

describe('GET /_api/matters/list as the Recent Matters widget reads it', () => {
  it('leaves vaulted matters out for users without canViewVaulted', async () => {
    const q = '/_api/matters/list?page=1&pageSize=5&sortBy=created_at&sortDirection=desc';
    const asAdmin = ok(await admin.client.get(q));
    expect(asAdmin.matters.some((m: { isVaulted: boolean }) => m.isVaulted)).toBe(true);
    const asPlain = ok(await plain.client.get(q));
    expect(asPlain.matters.length).toBeGreaterThan(0);
    expect(asPlain.matters.every((m: { isVaulted: boolean }) => !m.isVaulted)).toBe(true);
    expect(ok(await stranger.client.get(q)).matters).toEqual([]);
  });
});

describe('GET /_api/dashboard/activity', () => {
  it('shows an administrator the newest 5 entries of the organization', async () => {
    const { entries } = ok(await admin.client.get('/_api/dashboard/activity'));
    expect(entries).toHaveLength(5);
    const times = entries.map((e: { createdAt: string }) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('limits a user without canViewVaulted to their own actions and the organization-wide kinds', async () => {
    await createMatter(plain.client, { matterName: 'Plain Own Matter' });
    await t.ctx.db
      .insertInto('auditLogs')
      .values({
        organizationId: admin.organizationId,
        chainKey: 'dashboard-test',
        seq: 1,
        actorId: admin.userId,
        actorName: 'Ada Admin',
        action: 'APPLY_LEGAL_HOLD',
        details: JSON.stringify({}),
        createdAt: new Date(Date.now() + 60_000),
        prevHash: '0',
        hash: '1',
      })
      .execute();
    const asAdmin = ok(await admin.client.get('/_api/dashboard/activity')).entries;
    expect(asAdmin[0].action).toBe('APPLY_LEGAL_HOLD');
    const asPlain = ok(await plain.client.get('/_api/dashboard/activity')).entries as Array<{ action: string; actorName: string }>;
    expect(asPlain.length).toBeGreaterThan(0);
    for (const e of asPlain)
      expect(e.actorName === 'Pat Member' || ['CREATE_MATTER', 'INVITE_USER', 'UPDATE_ORG_INFO'].includes(e.action)).toBe(true);
    expect(asPlain.some((e) => e.action === 'APPLY_LEGAL_HOLD')).toBe(false);
  });

  it('says each entry as the Audit Logs page does, with names', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Estate of Wren Hollis' });
    await uploadFile(t, admin.client, matter.id, 'Defence.pdf', randomBytes(10));
    const entries = ok(await admin.client.get('/_api/dashboard/activity')).entries as Array<{ action: string; summary: string }>;
    const upload = entries.find((e) => e.action === 'UPLOAD_FILE');
    expect(upload!.summary).toMatch(/ uploaded “Defence\.pdf” to “Estate of Wren Hollis”$/);
  });

  it('shows a guest only their own actions and another organization only its own', async () => {
    const asGuest = ok(await guest.client.get('/_api/dashboard/activity')).entries as Array<{ actorName: string }>;
    for (const e of asGuest) expect(e.actorName).toBe('Pat Member');
    const asStranger = ok(await stranger.client.get('/_api/dashboard/activity')).entries as Array<{ action: string }>;
    expect(asStranger.some((e) => e.action === 'APPLY_LEGAL_HOLD' || e.action === 'INVITE_USER')).toBe(false);
  });
});
