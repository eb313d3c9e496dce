/**
 * Notifications as each kind of person sees them: an administrator, a user without canViewVaulted nor
 * canManageUsers, a guest, and another organization's administrator; read state across two sessions of one
 * person; the 90-day retention alerts; and the daily mail to administrators through the SMTP sink, once a day.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_MSG, type NotificationItem } from '@strongroom/contracts';
import { createTestApp, signInWithEmailCode, type TestApp } from '../../../test/helpers.js';
import { addMember, createMatter, newOrganization, ok, PASSWORD, setMatterFlags, type Member } from '../../../test/factories.js';
import { retentionAlertMailPlan, runRetentionAlertMail } from './index.js';

const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
let admin: Member;
let plain: Member;
let guest: Member;
let stranger: Member;
let offset = 0;
/** Entries are written an hour back, a second apart, in order; 'later' ones are given their own moment. */
const START = Date.now() - 3600_000;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Hale & Partners LLP');
  plain = await addMember(
    t,
    admin.organizationId,
    'user',
    { canViewVaulted: false, canManageUsers: false, canInviteUsers: false },
    'Pat Plain',
  );
  guest = await addMember(t, admin.organizationId, 'guest', {}, 'Gil Guest');
  stranger = await newOrganization(t, 'Other Firm LLP');
});
afterAll(() => t.shutdown());

/** An audit entry (each a moment later than the last), as the feature that did it would write it. */
async function entry(
  who: Member,
  action: string,
  fields: { targetTable?: string; targetId?: string; details?: Record<string, unknown>; name?: string; at?: Date } = {},
): Promise<string> {
  offset += 1;
  const row = await t.ctx.db
    .insertInto('auditLogs')
    .values({
      organizationId: who.organizationId,
      chainKey: `notifications-test-${randomUUID()}`,
      seq: 1,
      actorId: who.userId,
      actorName: fields.name ?? null,
      actorEmail: who.email,
      action,
      targetTable: fields.targetTable ?? null,
      targetId: fields.targetId ?? null,
      details: JSON.stringify(fields.details ?? {}),
      createdAt: fields.at ?? new Date(START + offset * 1000),
      prevHash: '0',
      hash: '1',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

type Answer = { notifications: NotificationItem[]; unreadCount: number };
const list = async (m: Member, query = 'limit=50'): Promise<Answer> => ok(await m.client.get(`/_api/notifications?${query}`)) as Answer;
const ids = (a: Answer) => a.notifications.map((n) => n.id);

describe('GET /_api/notifications: who sees what', () => {
  const made: Record<string, string> = {};
  beforeAll(async () => {
    const matter = await createMatter(admin.client, { matterName: 'Smith v Jones' });
    made.hold = `audit-${await entry(admin, 'APPLY_LEGAL_HOLD', { targetTable: 'matters', targetId: matter.id, details: { matterId: matter.id, reason: 'Litigation' }, name: 'Ada Admin' })}`;
    made.vault = `audit-${await entry(admin, 'VAULT_MATTER', { targetTable: 'matters', targetId: matter.id, details: { matterId: matter.id, retentionYears: 7 }, name: 'Ada Admin' })}`;
    made.invite = `audit-${await entry(admin, 'INVITE_USER', { details: { email: 'new@hale.test', role: 'user' }, name: 'Ada Admin' })}`;
    made.adminMfa = `audit-${await entry(admin, 'MFA_TOTP_ENABLED', { name: 'Ada Admin' })}`;
    made.org = `audit-${await entry(admin, 'UPDATE_ORG_INFO', { details: { changed: ['name'] }, name: 'Ada Admin' })}`;
    made.plainMfa = `audit-${await entry(plain, 'MFA_EMAIL_ENABLED', { name: 'Pat Plain' })}`;
    made.plainHold = `audit-${await entry(plain, 'REMOVE_LEGAL_HOLD', { targetTable: 'matters', targetId: matter.id, details: { matterId: matter.id }, name: 'Pat Plain' })}`;
    made.guestMfa = `audit-${await entry(guest, 'MFA_EMAIL_ENABLED', { name: 'Gil Guest' })}`;
    made.login = `audit-${await entry(admin, 'USER_LOGIN', { name: 'Ada Admin' })}`;
    made.strangerOrg = `audit-${await entry(stranger, 'UPDATE_ORG_INFO', { name: 'Sam Stranger' })}`;
  });

  it('shows an administrator every kind, newest first, in words with names, each with its link', async () => {
    const a = await list(admin);
    const seen = ids(a);
    for (const k of ['hold', 'vault', 'invite', 'adminMfa', 'org', 'plainMfa', 'plainHold', 'guestMfa']) expect(seen).toContain(made[k]);
    expect(seen).not.toContain(made.login);
    expect(seen).not.toContain(made.strangerOrg);
    const times = a.notifications.map((n) => n.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const hold = a.notifications.find((n) => n.id === made.hold)!;
    expect(hold).toMatchObject({ kind: 'legal_hold', title: 'Legal hold', read: false, action: 'APPLY_LEGAL_HOLD' });
    expect(hold.sentence).toBe('Ada Admin placed “Smith v Jones” under legal hold (reason: “Litigation”)');
    expect(hold.link).toEqual({ type: 'matter', matterId: expect.any(String) });
    expect(a.notifications.find((n) => n.id === made.vault)!.link.type).toBe('vault');
    expect(a.notifications.find((n) => n.id === made.org)!.link).toEqual({ type: 'audit', auditLogId: made.org!.slice(6) });
    expect(a.unreadCount).toBeGreaterThanOrEqual(8);
  });

  it('shows a user without canViewVaulted nor canManageUsers organization items and only their own hold and MFA items', async () => {
    const seen = ids(await list(plain));
    expect(seen).toEqual(expect.arrayContaining([made.org, made.plainMfa, made.plainHold]));
    for (const k of ['hold', 'vault', 'invite', 'adminMfa', 'guestMfa', 'login', 'strangerOrg']) expect(seen).not.toContain(made[k]);
  });

  it('shows a guest organization items and their own MFA item only', async () => {
    const seen = ids(await list(guest));
    expect(seen).toEqual(expect.arrayContaining([made.org, made.guestMfa]));
    for (const k of ['hold', 'vault', 'invite', 'adminMfa', 'plainMfa', 'plainHold', 'strangerOrg']) expect(seen).not.toContain(made[k]);
  });

  it("shows another organization none of this one's", async () => {
    const seen = ids(await list(stranger));
    expect(seen).toContain(made.strangerOrg);
    for (const k of ['hold', 'vault', 'invite', 'adminMfa', 'org', 'plainMfa', 'guestMfa']) expect(seen).not.toContain(made[k]);
  });

  it('lists 5 by default, at most 50, and only unread ones when asked', async () => {
    expect((await list(admin, '')).notifications).toHaveLength(5);
    for (const bad of ['limit=0', 'limit=51', 'limit=abc', 'unreadOnly=maybe']) {
      expect((await admin.client.get(`/_api/notifications?${bad}`)).statusCode).toBe(400);
    }
    ok(await admin.client.post('/_api/notifications/read', { notificationIds: [made.org] }));
    const unread = await list(admin, 'limit=50&unreadOnly=true');
    expect(ids(unread)).not.toContain(made.org);
    expect(unread.notifications.every((n) => !n.read)).toBe(true);
  });

  it('refuses to mark what the caller may not see: another organization, a kind hidden from them (404)', async () => {
    const before = (await list(plain)).unreadCount;
    for (const id of [made.strangerOrg, made.vault, made.adminMfa, 'audit-999999999']) {
      const res = await plain.client.post('/_api/notifications/read', { notificationIds: [made.org, id] });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(NOTIFICATION_MSG.notFound);
    }
    // Nothing was marked, not even the visible one sent with them.
    expect((await list(plain)).unreadCount).toBe(before);
  });

  it('answers a clear 400 for malformed bodies', async () => {
    const cases: [unknown, string][] = [
      [{ notificationIds: ['nope'] }, NOTIFICATION_MSG.badId],
      [{ notificationIds: [`retention-${randomUUID()}-2027-1-1`] }, NOTIFICATION_MSG.badId],
      [{}, NOTIFICATION_MSG.idsOrAll],
      [{ notificationIds: [made.org], all: true }, NOTIFICATION_MSG.idsOrAll],
    ];
    for (const [body, message] of cases) {
      const res = await plain.client.post('/_api/notifications/read', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
    }
    expect((await plain.client.post('/_api/notifications/read', { notificationIds: [] })).statusCode).toBe(400);
    expect((await plain.client.post('/_api/notifications/read', { all: false })).statusCode).toBe(400);
  });
});

describe('read state', () => {
  it('follows the person across sessions, is idempotent, and Mark all as read leaves later ones unread', async () => {
    const sessionB = await signInWithEmailCode(t, { email: plain.email, password: PASSWORD });
    const id = `audit-${await entry(plain, 'USER_PASSWORD_CHANGE', { name: 'Pat Plain' })}`;
    const before = await list(plain);
    expect(before.notifications.find((n) => n.id === id)!.read).toBe(false);

    const marked = ok(await plain.client.post('/_api/notifications/read', { notificationIds: [id] }));
    expect(marked.unreadCount).toBe(before.unreadCount - 1);
    const again = ok(await plain.client.post('/_api/notifications/read', { notificationIds: [id, id] }));
    expect(again.unreadCount).toBe(marked.unreadCount);

    const inB = ok(await sessionB.get('/_api/notifications?limit=50')) as Answer;
    expect(inB.notifications.find((n) => n.id === id)!.read).toBe(true);
    expect(inB.unreadCount).toBe(marked.unreadCount);
    // Another person's read state is their own.
    expect((await list(admin)).notifications.find((n) => n.id === id)?.read).toBe(false);

    expect(ok(await sessionB.post('/_api/notifications/read', { all: true })).unreadCount).toBe(0);
    expect((await list(plain)).unreadCount).toBe(0);
    const later = `audit-${await entry(admin, 'UPDATE_FEATURE_FLAGS', { name: 'Ada Admin', at: new Date(Date.now() + 60_000) })}`;
    const after = await list(plain);
    expect(after.unreadCount).toBe(1);
    expect(after.notifications.find((n) => n.id === later)!.read).toBe(false);
  });
});

describe('90-day retention alerts', () => {
  let soonId: string;
  let soonEnd: Date;
  beforeAll(async () => {
    const soon = await createMatter(admin.client, { matterName: 'Estate of Ivor Quill', matterNumber: 'MAT-2026-901' });
    const far = await createMatter(admin.client, { matterName: 'Far Off Matter' });
    const tooSoon = await createMatter(admin.client, { matterName: 'Ends Tonight' });
    for (const m of [soon, far, tooSoon]) await setMatterFlags(t, m.id, { vaulted: true });
    soonId = soon.id;
    soonEnd = new Date(Date.now() + 30 * DAY + 60_000);
    const set = (id: string, at: Date) => t.ctx.db.updateTable('matters').set({ retentionExpiresAt: at }).where('id', '=', id).execute();
    await set(soon.id, soonEnd);
    await set(far.id, new Date(Date.now() + 120 * DAY));
    await set(tooSoon.id, new Date(Date.now() + DAY / 2));
  });

  it('lists a vaulted matter whose retention ends in 1 to 90 days to holders of canViewVaulted, linked to the vault', async () => {
    const key = `retention-${soonId}-${soonEnd.toISOString().slice(0, 10)}`;
    const alerts = (await list(admin)).notifications.filter((n) => n.action === 'RETENTION_ALERT');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      id: key,
      kind: 'retention',
      title: NOTIFICATION_MSG.retentionAlertTitle,
      sentence: 'The retention of “Estate of Ivor Quill” ends in 31 days',
      read: false,
      link: { type: 'vault', matterId: soonId },
    });
    expect(ids(await list(plain))).not.toContain(key);
    expect(ids(await list(guest))).not.toContain(key);
    expect(ids(await list(stranger))).not.toContain(key);
    expect((await plain.client.post('/_api/notifications/read', { notificationIds: [key] })).statusCode).toBe(404);
    expect((await stranger.client.post('/_api/notifications/read', { notificationIds: [key] })).statusCode).toBe(404);

    const before = (await list(admin)).unreadCount;
    expect(ok(await admin.client.post('/_api/notifications/read', { notificationIds: [key] })).unreadCount).toBe(before - 1);
    expect((await list(admin)).notifications.find((n) => n.id === key)!.read).toBe(true);
  });

  it('mails each active administrator the list once a day; an organization without alerts gets nothing', async () => {
    const second = await addMember(t, admin.organizationId, 'admin', {}, 'Bea Second');
    const retired = await addMember(t, admin.organizationId, 'admin', {}, 'Ray Retired');
    await t.ctx.db.updateTable('users').set({ isActive: false }).where('id', '=', retired.userId).execute();
    const start = t.sink.messages.length;
    const now = new Date();
    // The plan (the run-job command's dry run) names who would get it, and sends nothing.
    expect(await retentionAlertMailPlan(t.ctx, now)).toEqual([
      { organizationId: admin.organizationId, alerts: 1, wouldMail: [admin.email, second.email], alreadySent: 0 },
    ]);
    expect(await retentionAlertMailPlan(t.ctx, now, stranger.organizationId)).toEqual([]);
    // A run for another organization leaves this one's mail for its own run.
    expect(await runRetentionAlertMail(t.ctx, now, stranger.organizationId)).toEqual({
      organizations: 0,
      sent: 0,
      alreadySent: 0,
      failed: 0,
    });
    expect(t.sink.messages.length).toBe(start);
    const run = await runRetentionAlertMail(t.ctx, now, admin.organizationId);
    expect(run).toMatchObject({ sent: 2, failed: 0 });
    const mail = await t.sink.waitFor(admin.email, { subjectIncludes: 'end of retention' });
    await t.sink.waitFor(second.email, { subjectIncludes: 'end of retention' });
    expect(mail.subject).toBe('Strongroom: 1 vaulted matter reaches the end of retention within 90 days');
    expect(mail.text).toContain(`- Estate of Ivor Quill (MAT-2026-901): ends on ${soonEnd.toISOString().slice(0, 10)}, in 31 days`);
    expect(mail.text).not.toContain('Far Off Matter');
    expect(mail.text).not.toContain('Ends Tonight');
    const sentTo = t.sink.messages.slice(start).flatMap((m) => m.to);
    expect(sentTo).not.toContain(retired.email);
    expect(sentTo).not.toContain(stranger.email);
    expect(sentTo).not.toContain(plain.email);

    // The same day again, through the durable job as the scheduler runs it: nothing more is sent.
    const count = t.sink.messages.length;
    expect((await runRetentionAlertMail(t.ctx, now)).sent).toBe(0);
    expect(await retentionAlertMailPlan(t.ctx, now)).toEqual([
      { organizationId: admin.organizationId, alerts: 1, wouldMail: [], alreadySent: 2 },
    ]);
    await t.ctx.jobs.enqueue(t.ctx.db, 'notifications-retention-mail', {});
    expect(await t.ctx.jobs.runDueJobs(['notifications-retention-mail'])).toEqual({ completed: 1, failed: 0 });
    expect(t.sink.messages.length).toBe(count);
    // The next day mails again.
    expect((await runRetentionAlertMail(t.ctx, new Date(now.getTime() + DAY))).sent).toBe(2);
  });
});
