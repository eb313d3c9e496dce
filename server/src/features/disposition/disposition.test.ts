/**
 * The disposition review: retention end never destroys silently. Matters are vaulted through the real calls (the
 * vault start and its transfer), with a retention end set before the transfer runs so that the store's locks end
 * with it; a retention that ends "soon" ends a few seconds after its transfer, and each case waits until it has passed.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DISPOSITION_MSG, signedCertificateSchema, type DispositionItem } from '@strongroom/contracts';
import { createTestApp, type Client, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createMatter,
  freePort,
  newOrganizationWithTotp,
  newTotpAdmin,
  ok,
  sha256,
  uploadFile,
  type TotpMember,
} from '../../../test/factories.js';
import { verifyCertificateCli } from '../../../test/process-helpers.js';
import { certificateBytes, verifyCertificate } from '../../platform/signing.js';
import { currentTotp } from '../mfa/index.js';
import { runDispositionReview } from './disposition.jobs.js';

const DAY = 86_400_000;
let t: TestApp;
let admin: TotpMember;
let second: TotpMember;
const tempDirs: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ JOB_RUNNER: 'off', APP_URL: `http://127.0.0.1:${port}` });
  admin = await newOrganizationWithTotp(t, 'Disposal & Co LLP');
  second = await newTotpAdmin(t, admin.organizationId, 'Bea Second');
});
afterAll(async () => {
  for (const d of tempDirs) await fs.rm(d, { recursive: true, force: true });
  await t.shutdown();
});

const VAULT_TRANSFER_JOB = 'vault-transfer';
const VAULT_RETENTION_JOB = 'vault-retention-end';

/** A run of retention end (the vault's daily job), now. */
async function runRetentionEnd() {
  await t.ctx.jobs.enqueue(t.ctx.db, VAULT_RETENTION_JOB, {});
  expect(await t.ctx.jobs.runDueJobs([VAULT_RETENTION_JOB])).toEqual({ completed: 1, failed: 0 });
}

/** A fresh code of the member's authenticator (its last used step forgotten, as a minute later). */
async function code(m: TotpMember): Promise<string> {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', m.userId).execute();
  return currentTotp(m.totpSecret);
}

type Vaulted = { id: string; name: string; ends: Date; files: Array<{ nodeId: string; bytes: Buffer }> };

/**
 * A matter vaulted through the real calls whose retention ends at `ends` (its store locks too). A number is a
 * retention that ends that many milliseconds after the transfer starts; were the machine so slow that the end
 * passed before the transfer locked the copies, the setup did not make what the case needs, and it is made again
 * with twice the time (the product's answer to a lock date already past is not what these cases test).
 */
async function vaulted(name: string, ends: Date | number, files = 2, by: TotpMember = admin): Promise<Vaulted> {
  for (let lead = typeof ends === 'number' ? ends : 0, attempt = 1; ; lead *= 2, attempt++) {
    const matter = await createMatter(by.client, { matterName: attempt === 1 ? name : `${name} ${attempt}` });
    const out: Vaulted['files'] = [];
    for (let i = 0; i < files; i++) {
      const bytes = randomBytes(300 + i);
      const node = await uploadFile(t, by.client, matter.id, `record-${i}.pdf`, bytes);
      out.push({ nodeId: node.id, bytes });
    }
    ok(await by.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 7, mfaToken: await code(by) }));
    const end = typeof ends === 'number' ? new Date(Date.now() + lead) : ends;
    await t.ctx.db.updateTable('matters').set({ retentionExpiresAt: end, legalHold: false }).where('id', '=', matter.id).execute();
    await t.ctx.db.updateTable('vaultTransfers').set({ retentionExpiresAt: end }).where('matterId', '=', matter.id).execute();
    await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB]);
    const transfer = await t.ctx.db
      .selectFrom('vaultTransfers')
      .select('state')
      .where('matterId', '=', matter.id)
      .executeTakeFirstOrThrow();
    if (transfer.state !== 'completed' && typeof ends === 'number' && Date.now() > end.getTime() && attempt < 4) continue;
    expect(transfer.state).toBe('completed');
    return { id: matter.id, name: attempt === 1 ? name : `${name} ${attempt}`, ends: end, files: out };
  }
}

async function list(c: Client, status?: string): Promise<{ items: DispositionItem[]; counts: Record<string, number> }> {
  return ok(await c.get(`/_api/disposition/list${status ? `?status=${status}` : ''}`));
}
const itemOf = async (c: Client, matterId: string) => (await list(c)).items.find((i) => i.matterId === matterId);

async function decide(m: TotpMember, body: Record<string, unknown>) {
  return m.client.post('/_api/disposition/decide', { reason: 'Retention policy reviewed', ...body, mfaToken: await code(m) });
}

const objectsOf = (matterId: string) => t.ctx.db.selectFrom('vaultObjects').selectAll().where('matterId', '=', matterId).execute();
const destruction = (matterId: string) =>
  t.ctx.db
    .selectFrom('vaultCertificates')
    .selectAll()
    .where('matterId', '=', matterId)
    .where('kind', '=', 'destruction')
    .executeTakeFirst();
const until = (d: Date) =>
  vi.waitFor(
    () => {
      if (Date.now() <= d.getTime() + 50) throw new Error('not yet');
    },
    { timeout: 60_000, interval: 50 },
  );

// Each case vaults matters through the real transfer and waits for retentions to end: slow on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

describe('the disposition queue', () => {
  it('queues matters within the lead time and those already past their end, once; the lead time is per organization', async () => {
    const soon = await vaulted('Ends In Ten Days', new Date(Date.now() + 10 * DAY));
    const later = await vaulted('Ends In Sixty Days', new Date(Date.now() + 60 * DAY));
    const past = await vaulted('Ended Unreviewed', 1500);
    await until(past.ends);
    expect(await runDispositionReview(t.ctx, new Date(), admin.organizationId)).toMatchObject({ queued: 2 });
    // Idempotent: a second run queues nothing more.
    expect(await runDispositionReview(t.ctx, new Date(), admin.organizationId)).toMatchObject({ queued: 0 });
    expect((await itemOf(admin.client, soon.id))?.status).toBe('due');
    expect((await itemOf(admin.client, soon.id))?.daysLeft).toBe(10);
    expect((await itemOf(admin.client, past.id))?.status).toBe('overdue');
    expect(await itemOf(admin.client, later.id)).toBeUndefined();
    const queued = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'DISPOSITION_QUEUED');
    expect(queued.map((e) => e.targetId).sort()).toEqual([soon.id, past.id].sort());

    // A lead time of 90 days takes the sixty-day matter in too.
    await t.ctx.db
      .insertInto('approvalSettings')
      .values({ organizationId: admin.organizationId, actions: '[]', dispositionLeadDays: 90 })
      .onConflict((oc) => oc.column('organizationId').doUpdateSet({ dispositionLeadDays: 90 }))
      .execute();
    expect(await runDispositionReview(t.ctx, new Date(), admin.organizationId)).toMatchObject({ queued: 1 });
    expect((await itemOf(admin.client, later.id))?.status).toBe('due');
    await t.ctx.db.deleteFrom('approvalSettings').where('organizationId', '=', admin.organizationId).execute();

    // An unreviewed matter past its end is kept: retention end destroys nothing of it.
    await runRetentionEnd();
    expect((await objectsOf(past.id)).every((o) => o.state === 'vaulted')).toBe(true);
    expect(await destruction(past.id)).toBeUndefined();
    expect((await list(admin.client, 'overdue')).items.map((i) => i.matterId)).toContain(past.id);
  });

  it('reminds the administrators of overdue matters once a day: a notification and one mail each', async () => {
    const org = await newOrganizationWithTotp(t, 'Reminded LLP');
    const m = await vaulted('Overdue For Reminder', 1000, 1, org);
    await until(m.ends);
    const mailsTo = () =>
      t.sink.messages.filter((x) => JSON.stringify(x).includes(org.email) && /disposition decision/.test(JSON.stringify(x)));
    const now = new Date();
    expect(await runDispositionReview(t.ctx, now, org.organizationId)).toMatchObject({ queued: 1, reminders: 1, mailed: 1 });
    await vi.waitFor(() => expect(mailsTo()).toHaveLength(1), { timeout: 5000, interval: 25 });
    // The same day again: nothing more.
    expect(await runDispositionReview(t.ctx, new Date(now.getTime() + 60_000), org.organizationId)).toMatchObject({
      reminders: 0,
      mailed: 0,
    });
    const reminders = () => auditActions(t, org.organizationId).then((a) => a.filter((e) => e.action === 'DISPOSITION_REMINDER'));
    expect(await reminders()).toHaveLength(1);
    expect((await reminders())[0]!.details).toMatchObject({ overdue: 1 });
    const notes = ok(await org.client.get('/_api/notifications?limit=50'));
    expect(
      notes.notifications.some(
        (n: { action: string; sentence: string }) => n.action === 'DISPOSITION_REMINDER' && /reminded/.test(n.sentence),
      ),
    ).toBe(true);
    // The next day: one more.
    expect(await runDispositionReview(t.ctx, new Date(now.getTime() + DAY), org.organizationId)).toMatchObject({ reminders: 1 });
    expect(await reminders()).toHaveLength(2);
    await vi.waitFor(() => expect(mailsTo()).toHaveLength(2), { timeout: 5000, interval: 25 });
  });
});

describe('deciding', () => {
  it('destroys an approved matter only once its retention ends, with a certificate naming the approver, read back and verified', async () => {
    const m = await vaulted('Approve Before End', 10_000);
    await runDispositionReview(t.ctx, new Date(), admin.organizationId);
    const res = ok(await decide(admin, { matterId: m.id, decision: 'destroy' }));
    expect(res.message).toBe(DISPOSITION_MSG.approved);
    expect(res.item).toMatchObject({ status: 'approved', approvedBy: [{ userId: admin.userId, email: admin.email }] });
    // Before the end: nothing goes.
    await runRetentionEnd();
    expect((await objectsOf(m.id)).every((o) => o.state === 'vaulted')).toBe(true);
    await until(m.ends);
    await runRetentionEnd();
    expect((await objectsOf(m.id)).every((o) => o.state === 'destroyed')).toBe(true);
    expect((await itemOf(admin.client, m.id))?.status).toBe('destroyed');

    const cert = (await destruction(m.id))!;
    const bytes: Buffer[] = [];
    for await (const c of await t.ctx.store.getStream(cert.objectKey)) bytes.push(Buffer.from(c as Buffer));
    const stored = signedCertificateSchema.parse(JSON.parse(Buffer.concat(bytes).toString('utf8')));
    expect(verifyCertificate(stored)).toBe(true);
    expect(certificateBytes(stored).equals(Buffer.concat(bytes))).toBe(true);
    expect(stored.payload.disposition).toEqual({
      reviewId: res.item.reviewId,
      requestId: null,
      approvedBy: [{ userId: admin.userId, name: 'Ada Admin', email: admin.email }],
      approvedAt: expect.any(String),
    });
    expect(stored.payload.files.map((f) => f.sha256).sort()).toEqual(m.files.map((f) => sha256(f.bytes)).sort());
    // The offline verifier checks it and names the approver.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strongroom-disposition-'));
    tempDirs.push(dir);
    await fs.writeFile(path.join(dir, 'certificate.json'), Buffer.concat(bytes));
    await fs.writeFile(path.join(dir, 'key.pem'), stored.publicKey);
    const checked = verifyCertificateCli(path.join(dir, 'certificate.json'), '--public-key', path.join(dir, 'key.pem'));
    expect(checked.status).toBe(0);
    expect(checked.stdout).toContain(`Destruction approved by: Ada Admin <${admin.email}>`);
  });

  it('destroys a matter approved after its end at the next run', async () => {
    const m = await vaulted('Approve After End', 1000, 1);
    await until(m.ends);
    await runDispositionReview(t.ctx, new Date(), admin.organizationId);
    expect(ok(await decide(admin, { matterId: m.id, decision: 'destroy' })).message).toBe(DISPOSITION_MSG.approvedNow);
    await runRetentionEnd();
    expect(await destruction(m.id)).toBeDefined();
  });

  it('never destroys a held matter, even approved; the hold decision places a legal hold', async () => {
    const approved = await vaulted('Approved Then Held', 3000, 1);
    const held = await vaulted('Held By Review', 3000, 1);
    await runDispositionReview(t.ctx, new Date(), admin.organizationId);
    ok(await decide(admin, { matterId: approved.id, decision: 'destroy' }));
    ok(
      await admin.client.post('/_api/matters/legal-hold', {
        matterId: approved.id,
        action: 'apply',
        reason: 'New claim filed in court',
        mfaToken: await code(admin),
      }),
    );
    const res = ok(await decide(admin, { matterId: held.id, decision: 'hold', reason: 'Subpoena expected' }));
    expect(res).toMatchObject({ message: DISPOSITION_MSG.held, item: { status: 'held', legalHold: true } });
    await until(held.ends);
    await runRetentionEnd();
    for (const m of [approved, held]) {
      expect((await objectsOf(m.id)).every((o) => o.state === 'vaulted')).toBe(true);
      expect(await destruction(m.id)).toBeUndefined();
    }
    const actions = (await auditActions(t, admin.organizationId)).filter((e) => e.targetId === held.id).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['APPLY_LEGAL_HOLD', 'DISPOSITION_HELD']));
    expect((await list(admin.client, 'held')).items.map((i) => i.matterId)).toContain(held.id);
    // Deciding again answers that it was decided.
    const again = await decide(admin, { matterId: held.id, decision: 'destroy' });
    expect(again.statusCode).toBe(409);
  });

  it('extends the end date and the store retention; an extension after approval stops the destruction', async () => {
    const m = await vaulted('Extended Matter', 3000, 2);
    await runDispositionReview(t.ctx, new Date(), admin.organizationId);
    ok(await decide(admin, { matterId: m.id, decision: 'destroy' }));
    // Refusals first: no date, an earlier date, a date that is not one.
    const none = await decide(admin, { matterId: m.id, decision: 'extend' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain(DISPOSITION_MSG.retainUntilRequired);
    const earlier = await decide(admin, { matterId: m.id, decision: 'extend', retainUntil: '2020-01-01' });
    expect(earlier.statusCode).toBe(400);
    expect(earlier.body).toContain(DISPOSITION_MSG.retainUntilNotLater);
    expect((await decide(admin, { matterId: m.id, decision: 'extend', retainUntil: '2031-02-30' })).statusCode).toBe(400);

    const res = ok(await decide(admin, { matterId: m.id, decision: 'extend', retainUntil: 2 }));
    const expected = new Date(m.ends.getTime());
    expected.setUTCFullYear(expected.getUTCFullYear() + 2);
    expect(res.item.status).toBe('extended');
    const matter = await t.ctx.db.selectFrom('matters').select('retentionExpiresAt').where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(matter.retentionExpiresAt).toEqual(expected);
    for (const o of await objectsOf(m.id)) {
      expect(o.retainUntil).toEqual(expected);
      expect((await t.ctx.store.vaultInfo(o.objectKey))?.lock?.retainUntil).toEqual(expected);
    }
    await until(m.ends);
    await runRetentionEnd();
    expect((await objectsOf(m.id)).every((o) => o.state === 'vaulted')).toBe(true);
    expect(await destruction(m.id)).toBeUndefined();
    expect((await auditActions(t, admin.organizationId)).some((e) => e.action === 'DISPOSITION_EXTENDED' && e.targetId === m.id)).toBe(
      true,
    );
  });
});

describe('who may read and decide', () => {
  it('lets holders of canViewVaulted list but only administrators decide; other organizations and other matters are refused', async () => {
    const m = await vaulted('Permissions Matter', new Date(Date.now() + 5 * DAY), 1);
    await runDispositionReview(t.ctx, new Date(), admin.organizationId);
    const viewer = await addMember(t, admin.organizationId, 'user', { canViewVaulted: true }, 'Vic Viewer');
    const outsider = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false }, 'Oscar Outside');
    expect((await itemOf(viewer.client, m.id))?.canDecide).toBe(false);
    expect((await outsider.client.get('/_api/disposition/list')).statusCode).toBe(403);
    const refused = await viewer.client.post('/_api/disposition/decide', {
      matterId: m.id,
      decision: 'destroy',
      reason: 'Not mine to decide',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain(DISPOSITION_MSG.decideDenied);

    // Another organization's matter answers as one that does not exist.
    const other = await newOrganizationWithTotp(t, 'Elsewhere LLP');
    const theirs = await createMatter(other.client, { matterName: 'Theirs' });
    const foreign = await decide(admin, { matterId: theirs.id, decision: 'destroy' });
    expect(foreign.statusCode).toBe(404);
    expect((await decide(other, { matterId: m.id, decision: 'hold' })).statusCode).toBe(404);
    // A matter that is not in the queue: 409 with a message.
    const mine = await createMatter(admin.client, { matterName: 'Not Vaulted' });
    const notQueued = await decide(admin, { matterId: mine.id, decision: 'destroy' });
    expect(notQueued.statusCode).toBe(409);
    expect(notQueued.body).toContain(DISPOSITION_MSG.notInQueue);
    expect((await admin.client.get('/_api/disposition/list?status=nonsense')).statusCode).toBe(400);
  });

  it('gives one outcome when two administrators decide at once', async () => {
    const m = await vaulted('Decided Twice', new Date(Date.now() + 5 * DAY), 1);
    await runDispositionReview(t.ctx, new Date(), admin.organizationId);
    const [a, b] = await Promise.all([
      decide(admin, { matterId: m.id, decision: 'destroy', reason: 'First approval' }),
      decide(second, { matterId: m.id, decision: 'destroy', reason: 'Second approval' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().error).toBe(DISPOSITION_MSG.alreadyDecided('Approved for destruction'));
    const review = await t.ctx.db.selectFrom('dispositionReviews').selectAll().where('matterId', '=', m.id).executeTakeFirstOrThrow();
    const winner = a.statusCode === 200 ? admin : second;
    expect(review).toMatchObject({
      status: 'approved',
      decidedBy: winner.userId,
      decisionReason: a.statusCode === 200 ? 'First approval' : 'Second approval',
    });
    expect(review.approvedBy).toEqual([expect.objectContaining({ userId: winner.userId })]);
    const decisions = (await auditActions(t, admin.organizationId)).filter(
      (e) => e.targetId === m.id && e.action === 'DISPOSITION_APPROVED',
    );
    expect(decisions).toHaveLength(1);
    // A hold after the approval is still taken: it stops the destruction.
    const held = await decide(second, { matterId: m.id, decision: 'hold', reason: 'Keep it for the audit' });
    expect(held.statusCode).toBe(200);
  });
});

describe('with DESTROY_AT_RETENTION_END in the organization’s approval rules', () => {
  it('answers 202 to a destroy decision, and approves it only once a second administrator does; the certificate names both and the request', async () => {
    const lead = await newOrganizationWithTotp(t, 'Four Eyes LLP');
    const partner = await newTotpAdmin(t, lead.organizationId, 'Pat Partner');
    ok(await lead.client.post('/_api/settings/approvals', { actions: ['DESTROY_AT_RETENTION_END'], mfaToken: await code(lead) }));
    const kept = await vaulted('Governed Then Held', new Date(Date.now() + 60 * 60_000), 1, lead);
    const m = await vaulted('Governed Destruction', 20_000, 2, lead);
    await runDispositionReview(t.ctx, new Date(), lead.organizationId);

    // Extending or holding is not governed: it happens at once.
    const asked = await decide(lead, { matterId: m.id, decision: 'destroy', reason: 'Retention met, no claims' });
    expect(asked.statusCode).toBe(202);
    const body = asked.json();
    expect(body).toMatchObject({
      approvalRequired: true,
      code: 'APPROVAL_REQUIRED',
      preview: { action: 'DESTROY_AT_RETENTION_END', cannotBeUndone: true },
    });
    expect(body.preview.files.map((f: { sha256: string }) => f.sha256).sort()).toEqual(m.files.map((f) => sha256(f.bytes)).sort());
    expect(body.preview.filesNotListed).toBe(0);
    expect((await itemOf(lead.client, m.id))?.status).toBe('due');

    const approved = ok(
      await partner.client.post('/_api/approvals/decide', {
        requestId: body.requestId,
        decision: 'approve',
        mfaToken: await code(partner),
      }),
    );
    expect(approved.request).toMatchObject({ status: 'approved', executedAt: expect.any(String) });
    const item = (await itemOf(lead.client, m.id))!;
    expect(item).toMatchObject({ status: 'approved', approvalRequestId: body.requestId });
    expect(item.approvedBy.map((a) => a.userId)).toEqual([lead.userId, partner.userId]);

    await until(m.ends);
    await runRetentionEnd();
    const cert = (await destruction(m.id))!;
    const signed = signedCertificateSchema.parse(cert.body);
    expect(verifyCertificate(signed)).toBe(true);
    expect(signed.payload.disposition).toMatchObject({
      requestId: body.requestId,
      approvedBy: [
        { userId: lead.userId, email: lead.email },
        { userId: partner.userId, name: 'Pat Partner', email: partner.email },
      ],
    });

    // A request whose matter is put under hold before the approval is void: nothing is approved.
    const second = await decide(lead, { matterId: kept.id, decision: 'destroy', reason: 'Retention met' });
    expect(second.statusCode).toBe(202);
    ok(await lead.client.post('/_api/disposition/decide', { matterId: kept.id, decision: 'hold', reason: 'Claim threatened' }));
    const voided = ok(
      await partner.client.post('/_api/approvals/decide', {
        requestId: second.json().requestId,
        decision: 'approve',
        mfaToken: await code(partner),
      }),
    );
    expect(voided.request.status).toBe('void');
    expect((await itemOf(lead.client, kept.id))?.status).toBe('held');
  });
});
