/**
 * Legal hold (POST /_api/matters/legal-hold), vaulting (POST /_api/vault/start) and the vault certificate
 * (GET /_api/vault/certificate) as a user or an attacker sees them: every validation message, who may, the
 * second factor, the 409s, irreversibility, another organization's ids. The transfer itself is in
 * vault-transfer.test.ts, the crash in vault-crash.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, VAULT_MSG, type SignedCertificate } from '@strongroom/contracts';
import { checkCertificateText } from '../../platform/signing-verify.js';
import { currentTotp } from '../mfa/index.js';
import { createTestApp, waitForCount, type TestApp } from '../../../test/helpers.js';
import { addPerson } from '../../../test/probe/world.js';
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
} from '../../../test/factories.js';
import { VAULT_TRANSFER_JOB } from './vault-transfer.jobs.js';
import { AUTOMATIC_HOLD_REASON } from './vault.service.js';

let t: TestApp;
let admin: TotpMember;
let emailAdmin: Member;
let user: Member;
let vaulter: Member;
let guest: Member;
let blind: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Vault & Partners');
  emailAdmin = await addMember(t, admin.organizationId, 'admin', {}, 'Erin Emailadmin');
  user = await addMember(t, admin.organizationId, 'user', {}, 'Uma User');
  vaulter = await addMember(t, admin.organizationId, 'user', { canVault: true }, 'Val Vaulter');
  guest = await addMember(t, admin.organizationId, 'guest', {}, 'Gus Guest');
  blind = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false }, 'Bea Blind');
  other = await newOrganization(t, 'Other Firm LLP');
});
afterAll(() => t.shutdown());

/** A TOTP code the server takes now: the last used step is forgotten first (each test may use several). */
const totp = (m: TotpMember) => freshTotp(t, m);

/** An emailed action code for a signed-in member (through the real mail sink). */
async function emailCode(m: Member): Promise<string> {
  const before = t.sink.messages.length;
  ok(await m.client.post('/_api/auth/mfa-email', { userId: m.userId }));
  await waitForCount(t.sink, before + 1);
  return t.sink.lastCode(m.email);
}

async function setVaultFlag(organizationId: string, enabled: boolean) {
  await t.ctx.db
    .insertInto('featureFlags')
    .values({ organizationId, flagName: 'MFA_VAULT_OPERATIONS', enabled, updatedAt: new Date() })
    .onConflict((oc) => oc.columns(['organizationId', 'flagName']).doUpdateSet({ enabled }))
    .execute();
}

async function matterRow(id: string) {
  return t.ctx.db.selectFrom('matters').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const hold = (matterId: string, extra: Record<string, unknown> = {}) => ({
  matterId,
  action: 'apply',
  reason: 'Litigation is expected in this matter',
  ...extra,
});

describe('POST /_api/matters/legal-hold', () => {
  it('answers every validation message', async () => {
    const m = await createMatter(admin.client);
    const cases: Array<[Record<string, unknown>, string]> = [
      [hold('not-a-uuid'), VAULT_MSG.invalidMatterId],
      [hold(m.id, { action: 'freeze' }), VAULT_MSG.invalidAction],
      [{ matterId: m.id, action: 'apply' }, VAULT_MSG.reasonRequired],
      [hold(m.id, { reason: '   ' }), VAULT_MSG.reasonRequired],
      [hold(m.id, { reason: 'Too short' }), VAULT_MSG.reasonTooShort],
      [hold(m.id, { reason: 'x'.repeat(2001) }), VAULT_MSG.reasonTooLong],
      [hold(m.id, { mfaToken: '123' }), VAULT_MSG.mfaTokenSixDigits],
      [hold(m.id, { mfaToken: 'a-system-token-of-many-characters' }), VAULT_MSG.mfaTokenSixDigits],
    ];
    for (const [body, message] of cases) {
      const res = await admin.client.post('/_api/matters/legal-hold', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
    }
    expect((await matterRow(m.id)).legalHold).toBe(false);
  });

  it('is for admins only: users, holders of canVault and guests are refused with the spec text', async () => {
    const m = await createMatter(admin.client);
    for (const who of [user, vaulter, guest]) {
      const res = await who.client.post('/_api/matters/legal-hold', hold(m.id, { mfaToken: '123456' }));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: VAULT_MSG.holdPermissionDenied, code: 'PERMISSION_ERROR' });
    }
    expect((await matterRow(m.id)).legalHold).toBe(false);
  });

  it('asks for a fresh TOTP code while MFA_VAULT_OPERATIONS is on, applies the hold with its reason and audits it', async () => {
    const m = await createMatter(admin.client);
    const first = await admin.client.post('/_api/matters/legal-hold', hold(m.id));
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({
      code: 'MFA_REQUIRED',
      mfaRequired: true,
      details: { operation: 'MFA_VAULT_OPERATIONS', availableMethods: ['totp'], mfaMethod: 'totp' },
    });
    const wrong = await admin.client.post('/_api/matters/legal-hold', hold(m.id, { mfaToken: '000000' }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'MFA_INVALID', error: MSG.invalidCode });
    expect((await matterRow(m.id)).legalHold).toBe(false);

    const res = await admin.client.post('/_api/matters/legal-hold', hold(m.id, { mfaToken: await totp(admin) }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: VAULT_MSG.holdApplied,
      matter: { id: m.id, legalHold: true, holdReason: 'Litigation is expected in this matter', version: m.version + 1, isVaulted: false },
    });
    const audit = (await auditActions(t, admin.organizationId)).filter((a) => a.targetId === m.id);
    expect(audit.at(-1)).toMatchObject({
      action: 'APPLY_LEGAL_HOLD',
      details: { reason: 'Litigation is expected in this matter', vaulted: false, version: m.version + 1 },
    });

    // Held: writes are refused; applying again is a 409 with a clear word, before any code is asked for.
    const update = await admin.client.post('/_api/matters/update', { matterId: m.id, expectedVersion: m.version + 1, matterName: 'New' });
    expect(update.statusCode).toBe(409);
    expect(update.json().details).toMatchObject({ reason: 'LEGAL_HOLD' });
    const folder = await admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'Docs' });
    expect(folder.statusCode).toBe(409);
    const again = await admin.client.post('/_api/matters/legal-hold', hold(m.id));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: VAULT_MSG.holdAlreadyApplied, code: 'CONFLICT_ERROR', details: { reason: 'LEGAL_HOLD' } });
  });

  it('takes an emailed code from an admin who uses email codes; removal clears the reason; removing again is a 409', async () => {
    const m = await createMatter(admin.client);
    ok(await admin.client.post('/_api/matters/legal-hold', hold(m.id, { mfaToken: await totp(admin) })));
    const body = { matterId: m.id, action: 'remove', reason: 'The dispute was settled' };
    const first = await emailAdmin.client.post('/_api/matters/legal-hold', body);
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { availableMethods: ['email'], mfaMethod: 'email' } });
    const res = await emailAdmin.client.post('/_api/matters/legal-hold', { ...body, mfaToken: await emailCode(emailAdmin) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: VAULT_MSG.holdRemoved, matter: { legalHold: false, holdReason: null } });
    const audit = (await auditActions(t, admin.organizationId)).filter((a) => a.targetId === m.id);
    expect(audit.at(-1)).toMatchObject({
      action: 'REMOVE_LEGAL_HOLD',
      details: { reason: 'The dispute was settled', previousReason: 'Litigation is expected in this matter' },
    });
    const again = await emailAdmin.client.post('/_api/matters/legal-hold', { matterId: m.id, action: 'remove' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: VAULT_MSG.holdNotApplied, details: { reason: 'NOT_HELD' } });
  });

  it('needs no code while the flag is off', async () => {
    await setVaultFlag(admin.organizationId, false);
    try {
      const m = await createMatter(admin.client);
      const res = await admin.client.post('/_api/matters/legal-hold', hold(m.id));
      expect(res.statusCode).toBe(200);
      expect(res.json().matter.legalHold).toBe(true);
      const removed = await admin.client.post('/_api/matters/legal-hold', { matterId: m.id, action: 'remove' });
      expect(removed.json()).toMatchObject({ message: VAULT_MSG.holdRemoved, matter: { legalHold: false } });
    } finally {
      await setVaultFlag(admin.organizationId, true);
    }
  });

  it("answers another organization's matter and an unknown id with 404, before any code is asked for", async () => {
    const mine = await createMatter(admin.client);
    const theirs = await createMatter(other.client);
    for (const matterId of [theirs.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await admin.client.post('/_api/matters/legal-hold', hold(matterId));
      expect(res.statusCode).toBe(404);
    }
    const res = await other.client.post('/_api/matters/legal-hold', hold(mine.id));
    expect(res.statusCode).toBe(404);
    expect((await matterRow(mine.id)).legalHold).toBe(false);
  });
});

const start = (matterId: string, extra: Record<string, unknown> = {}) => ({ matterId, retentionYears: 7, ...extra });

describe('POST /_api/vault/start', () => {
  it('answers every validation message', async () => {
    const m = await createMatter(admin.client);
    const cases: Array<[Record<string, unknown>, string]> = [
      [start('nope'), VAULT_MSG.invalidMatterId],
      [{ matterId: m.id }, VAULT_MSG.retentionMin],
      [start(m.id, { retentionYears: 0 }), VAULT_MSG.retentionMin],
      [start(m.id, { retentionYears: 2.5 }), VAULT_MSG.retentionMin],
      [start(m.id, { retentionYears: '7' }), VAULT_MSG.retentionMin],
      [start(m.id, { retentionYears: 101 }), VAULT_MSG.retentionMax],
      [start(m.id, { mfaToken: '12345' }), VAULT_MSG.mfaTokenSixDigits],
    ];
    for (const [body, message] of cases) {
      const res = await admin.client.post('/_api/vault/start', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
    }
    expect((await matterRow(m.id)).isVaulted).toBe(false);
  });

  it('is for admins and holders of canVault; others are refused', async () => {
    const m = await createMatter(admin.client);
    const res = await user.client.post('/_api/vault/start', start(m.id, { mfaToken: '123456' }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: VAULT_MSG.vaultPermissionDenied, code: 'PERMISSION_ERROR' });
    expect((await guest.client.post('/_api/vault/start', start(m.id))).statusCode).toBe(403);

    const byVaulter = await vaulter.client.post(
      '/_api/vault/start',
      start(m.id, { retentionYears: 1, mfaToken: await emailCode(vaulter) }),
    );
    expect(byVaulter.statusCode).toBe(200);
    expect((await matterRow(m.id)).isVaulted).toBe(true);
  });

  it('always asks for a fresh code, whatever the flags say; a system MFA token does not serve', async () => {
    await setVaultFlag(admin.organizationId, false);
    try {
      const m = await createMatter(admin.client);
      const first = await admin.client.post('/_api/vault/start', start(m.id));
      expect(first.statusCode).toBe(401);
      expect(first.json()).toMatchObject({ code: 'MFA_REQUIRED', details: { operation: 'VAULT_MATTER', availableMethods: ['totp'] } });
      const system = ok(await admin.client.post('/_api/auth/verifySystemMfa', { operation: 'VAULT_MATTER', mfaToken: await totp(admin) }));
      const withToken = await admin.client.post('/_api/vault/start', start(m.id, { mfaToken: system.systemMfaToken }));
      expect(withToken.statusCode).toBe(400);
      expect(withToken.json()).toMatchObject({ error: VAULT_MSG.mfaTokenSixDigits });
      const wrong = await admin.client.post('/_api/vault/start', start(m.id, { mfaToken: '000000' }));
      expect(wrong.json()).toMatchObject({ code: 'MFA_INVALID' });
      expect((await matterRow(m.id)).isVaulted).toBe(false);
    } finally {
      await setVaultFlag(admin.organizationId, true);
    }
  });

  it('refuses a matter under legal hold with 409, before any code is asked for', async () => {
    const m = await createMatter(admin.client);
    ok(await admin.client.post('/_api/matters/legal-hold', hold(m.id, { mfaToken: await totp(admin) })));
    const res = await admin.client.post('/_api/vault/start', start(m.id));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: VAULT_MSG.vaultHeld, code: 'CONFLICT_ERROR', details: { reason: 'LEGAL_HOLD' } });
    expect((await matterRow(m.id)).isVaulted).toBe(false);
  });

  it('vaults the matter: Vaulted, read-only, held, retention from now, audited, the transfer enqueued; irreversible', async () => {
    const m = await createMatter(admin.client, { matterName: 'Estate of Ada' });
    const folder = await createFolder(admin.client, m.id, 'Pleadings');
    const file = await uploadFile(t, admin.client, m.id, 'claim.pdf', Buffer.from('%PDF claim'), folder.id);
    const before = Date.now();
    const res = await admin.client.post('/_api/vault/start', start(m.id, { retentionYears: 10, mfaToken: await totp(admin) }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe(VAULT_MSG.vaultStarted);
    const vaultedAt = new Date(body.vaultedAt);
    expect(vaultedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const expected = new Date(vaultedAt);
    expected.setUTCFullYear(expected.getUTCFullYear() + 10);
    expect(body.retentionExpiresAt).toBe(expected.toISOString());

    const row = await matterRow(m.id);
    expect(row).toMatchObject({
      isVaulted: true,
      status: 'Vaulted',
      legalHold: true,
      holdReason: AUTOMATIC_HOLD_REASON,
      version: m.version + 1,
    });
    const transfer = await t.ctx.db.selectFrom('vaultTransfers').selectAll().where('matterId', '=', m.id).executeTakeFirstOrThrow();
    expect(transfer).toMatchObject({ state: 'pending', filesTotal: 1, bytesTotal: '10', filesDone: 0 });
    expect(await t.ctx.jobs.pendingCount(VAULT_TRANSFER_JOB)).toBeGreaterThanOrEqual(1);
    const audit = (await auditActions(t, admin.organizationId)).filter((a) => a.targetId === m.id).map((a) => a.action);
    expect(audit.slice(-2)).toEqual(['VAULT_MATTER', 'VAULT_TRANSFER_INITIATED']);

    // No call undoes it: every change is refused, a second start too; removing the hold leaves it vaulted.
    const refused = await Promise.all([
      admin.client.post('/_api/vault/start', start(m.id, { mfaToken: '123456' })),
      admin.client.post('/_api/matters/update', { matterId: m.id, expectedVersion: row.version, matterName: 'Renamed' }),
      admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'More' }),
      admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'other.pdf' }),
      admin.client.post('/_api/nodes/move', { nodeId: file.id, newParentId: null }),
      admin.client.post('/_api/nodes/delete', { nodeId: file.id }),
      admin.client.post('/_api/nodes/delete', { nodeId: folder.id }),
      admin.client.post('/_api/upload/presigned', {
        fileName: 'x.pdf',
        fileType: 'application/pdf',
        matterId: m.id,
        parentId: null,
        fileSize: 5,
      }),
    ]);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().details).toMatchObject({ reason: 'VAULTED' });
    }
    expect(refused[0]!.json().error).toBe(VAULT_MSG.alreadyVaulted);
    const removed = await admin.client.post('/_api/matters/legal-hold', {
      matterId: m.id,
      action: 'remove',
      reason: 'Retention may now run its course',
      mfaToken: await totp(admin),
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().matter).toMatchObject({ isVaulted: true, status: 'Vaulted', legalHold: false });
    const update = await admin.client.post('/_api/matters/update', {
      matterId: m.id,
      expectedVersion: row.version + 1,
      matterName: 'Renamed',
    });
    expect(update.statusCode).toBe(409);
    expect(update.json().details).toMatchObject({ reason: 'VAULTED' });
    expect(await matterRow(m.id)).toMatchObject({ isVaulted: true, matterName: 'Estate of Ada' });
  });

  it('of two starts at once exactly one vaults the matter; the other answers 409', async () => {
    const m = await createMatter(admin.client, { matterName: 'Raced matter' });
    // A second administrator with an authenticator of their own: each sends a valid code at the same moment.
    const second = await addPerson(t, admin.organizationId, 'admin', { totp: true });
    const answers = await Promise.all([
      admin.client.post('/_api/vault/start', start(m.id, { mfaToken: await totp(admin) })),
      second.client.post('/_api/vault/start', start(m.id, { retentionYears: 3, mfaToken: currentTotp(second.totpSecret!) })),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((r) => r.statusCode === 409)!;
    expect(loser.json()).toMatchObject({ error: VAULT_MSG.alreadyVaulted, details: { reason: 'VAULTED' } });
    const audit = (await auditActions(t, admin.organizationId)).filter((a) => a.targetId === m.id).map((a) => a.action);
    expect(audit.filter((a) => a === 'VAULT_MATTER')).toHaveLength(1);
    expect(await t.ctx.db.selectFrom('vaultTransfers').select('matterId').where('matterId', '=', m.id).execute()).toHaveLength(1);
    expect(await matterRow(m.id)).toMatchObject({ isVaulted: true, version: m.version + 1 });
  });

  it("answers another organization's matter with 404 before any code is asked for", async () => {
    const theirs = await createMatter(other.client);
    const res = await admin.client.post('/_api/vault/start', start(theirs.id));
    expect(res.statusCode).toBe(404);
    expect((await matterRow(theirs.id)).isVaulted).toBe(false);
  });
});

describe('GET /_api/vault/certificate', () => {
  it('answers 409 before the transfer completed, then the signed certificate, byte for byte as stored', async () => {
    const m = await createMatter(admin.client, { matterName: 'Certified matter' });
    const folder = await createFolder(admin.client, m.id, 'Evidence');
    const a = await uploadFile(t, admin.client, m.id, 'a.pdf', Buffer.from('first file'), folder.id);
    const b = await uploadFile(t, admin.client, m.id, 'b.txt', Buffer.from('second file, longer'), null, 'text/plain');
    const url = `/_api/vault/certificate?matterId=${m.id}`;
    const notVaulted = await admin.client.get(url);
    expect(notVaulted.statusCode).toBe(409);
    expect(notVaulted.json()).toMatchObject({ error: VAULT_MSG.notVaulted });

    ok(await admin.client.post('/_api/vault/start', start(m.id, { mfaToken: await totp(admin) })));
    const early = await admin.client.get(url);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: VAULT_MSG.certificateNotReady, code: 'CONFLICT_ERROR', details: { reason: 'NOT_READY' } });

    await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB]);
    const res = await user.client.get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="vault-certificate-${m.id}.json"`);
    expect(checkCertificateText(res.body)).toMatchObject({ ok: true, problems: [] });
    const cert = JSON.parse(res.body) as SignedCertificate;
    expect(cert.payload).toMatchObject({
      kind: 'vault-certificate',
      organization: { id: admin.organizationId, name: 'Vault & Partners' },
      matter: { id: m.id, matterName: 'Certified matter' },
      totals: { files: 2, bytes: 'first file'.length + 'second file, longer'.length },
    });
    expect(cert.payload.files).toEqual([
      expect.objectContaining({ path: 'Evidence/a.pdf', sha256: a.sha256Hash, size: 10, lockMode: 'COMPLIANCE', legalHold: true }),
      expect.objectContaining({
        path: 'b.txt',
        sha256: b.sha256Hash,
        size: 19,
        objectKey: `vault/${admin.organizationId}/${m.id}/${b.id}`,
      }),
    ]);
    const stored = await t.ctx.db.selectFrom('vaultCertificates').selectAll().where('matterId', '=', m.id).executeTakeFirstOrThrow();
    const chunks: Buffer[] = [];
    for await (const chunk of await t.ctx.store.getStream(stored.objectKey)) chunks.push(chunk as Buffer);
    const storedBytes = Buffer.concat(chunks);
    expect(storedBytes.toString('utf8')).toBe(res.body);

    // Who may: canViewVaulted; another organization's matter answers 404.
    const denied = await blind.client.get(url);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ error: VAULT_MSG.viewPermissionDenied });
    expect((await guest.client.get(url)).statusCode).toBe(403);
    expect((await other.client.get(url)).statusCode).toBe(404);
    expect((await admin.client.get('/_api/vault/certificate?matterId=')).json()).toMatchObject({ error: VAULT_MSG.matterIdRequired });
    expect((await admin.client.get('/_api/vault/certificate?matterId=x')).json()).toMatchObject({ error: VAULT_MSG.invalidMatterId });
  });
});
