/**
 * GET /_api/audit-logs/chain-export and `npm run verify-audit`, as a stranger runs it: the real script in a child
 * process against an export the real route streamed. A genuine export verifies (whole chain, and a range starting
 * mid-chain whose start a signed head proves); an edited entry, a dropped line, two lines swapped and a head
 * forged with another key each exit 1 naming the entry; without a trusted key the script exits 2.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUDIT_LOG_MSG, MSG } from '@strongroom/contracts';
import { canonicalJson, keyIdOf } from '../src/platform/signing-verify.js';
import { certificateSigner } from '../src/platform/signing.js';
import { signChainHead } from '../src/features/audit/index.js';
import { archiveOrganizationLogs } from '../src/features/archival/archival.service.js';
import { auditFor } from '../src/shared/audit.js';
import { createTestApp, type TestApp } from './helpers.js';
import { addMember, auditActions, createMatter, newOrganizationWithTotp, systemMfaToken, type TotpMember } from './factories.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

type Run = { status: number | null; stdout: string; stderr: string };

function verify(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/verify-audit.mjs', ...args], { cwd: repoRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let t: TestApp;
let admin: TotpMember;
let token: string;
let dir: string;
let keyFile: string;
let fingerprint: string;
let genuine: string;

async function exportText(query = ''): Promise<string> {
  const res = await admin.client.get(`/_api/audit-logs/chain-export${query ? `?${query}` : ''}`, { 'x-mfa-token': token });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
  return res.body;
}

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, text);
  return file;
}

const linesOf = (text: string) => text.split('\n').slice(0, -1);
const joined = (lines: string[]) => `${lines.join('\n')}\n`;
/** The index of the line of entry `seq`. */
const lineOfEntry = (lines: string[], seq: number) => lines.findIndex((l) => l.includes('"type":"entry"') && JSON.parse(l).seq === seq);

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Chain Export LLP');
  for (let i = 0; i < 4; i++) await createMatter(admin.client, { matterName: `Export matter ${i}` });
  token = await systemMfaToken(admin, 'EXPORT_AUDIT_LOGS');
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strongroom-verify-audit-'));
  const signer = await certificateSigner(t.config);
  keyFile = await write('installation.pem', signer.publicKeyPem);
  fingerprint = signer.keyId;
  genuine = await exportText();
});
afterAll(async () => {
  await t.shutdown();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('GET /_api/audit-logs/chain-export', () => {
  it('streams the header, every entry in order, the covering head and the signed summary; audited', async () => {
    const lines = linesOf(genuine).map((l) => JSON.parse(l) as Record<string, unknown> & { payload?: Record<string, unknown> });
    const entries = lines.filter((l) => l.type === 'entry');
    expect(lines[0]).toMatchObject({ type: 'header', organizationId: admin.organizationId, range: { firstSeq: 1 } });
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(entries[0]).toHaveProperty('prevHash', '0'.repeat(64));
    const head = lines.find((l) => l.payload?.kind === 'audit-chain-head')!;
    // The head of the chain as exported was signed first, so the newest entry exported is covered.
    expect(head.payload!.seq).toBe(entries.at(-1)!.seq);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', payload: { count: entries.length, lastSeq: entries.at(-1)!.seq } });
    expect((await auditActions(t, admin.organizationId)).at(-1)).toMatchObject({
      action: 'AUDIT_CHAIN_EXPORTED',
      details: { firstSeq: 1, lastSeq: entries.length, count: entries.length },
    });
  });

  it('asks for the export step-up, is for administrators, refuses unknown fields and bad dates', async () => {
    const noToken = await admin.client.get('/_api/audit-logs/chain-export');
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json()).toMatchObject({ code: 'MFA_REQUIRED' });
    // The token may come as the mfaToken query parameter too.
    expect((await admin.client.get(`/_api/audit-logs/chain-export?mfaToken=${token}`)).statusCode).toBe(200);
    const user = await addMember(t, admin.organizationId, 'user');
    const asUser = await user.client.get('/_api/audit-logs/chain-export');
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().error).toBe(AUDIT_LOG_MSG.chainExportAdminsOnly);
    const extra = await admin.client.get('/_api/audit-logs/chain-export?limit=5', { 'x-mfa-token': token });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error).toBe(MSG.unknownFields(['limit']));
    const bad = await admin.client.get('/_api/audit-logs/chain-export?startDate=yesterday', { 'x-mfa-token': token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(AUDIT_LOG_MSG.invalidStartDate);
    const order = await admin.client.get('/_api/audit-logs/chain-export?startDate=2026-02-01T00:00:00Z&endDate=2026-01-01T00:00:00Z', {
      'x-mfa-token': token,
    });
    expect(order.statusCode).toBe(400);
    expect(order.json().error).toBe(AUDIT_LOG_MSG.dateOrder);
  });
});

describe('npm run verify-audit', () => {
  it('a genuine export verifies under --public-key and --fingerprint, the newest entry covered', async () => {
    const file = await write('genuine.ndjson', genuine);
    for (const trust of [
      ['--public-key', keyFile],
      ['--fingerprint', fingerprint],
    ]) {
      const r = await verify(file, ...trust);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('every hash, link and signature holds');
      expect(r.stdout).toContain('Start: the range begins at the first entry of the chain.');
      expect(r.stdout).toMatch(/Complete: the newest entry \(\d+\) is covered by a signed head/);
    }
  });

  it('a range starting mid-chain starts from a hash the signed head before it proves', async () => {
    const signed = (await signChainHead(t.ctx, admin.organizationId, 'manual'))!;
    await createMatter(admin.client, { matterName: 'After the head' });
    const next = await t.ctx.db
      .selectFrom('auditLogs')
      .select('createdAt')
      .where('chainKey', '=', admin.organizationId)
      .where('seq', '=', String(signed.seq + 1))
      .executeTakeFirstOrThrow();
    const text = await exportText(`startDate=${encodeURIComponent(new Date(next.createdAt).toISOString())}`);
    expect(JSON.parse(linesOf(text)[0]!)).toMatchObject({ range: { firstSeq: signed.seq + 1 } });
    const r = await verify(await write('mid.ndjson', text), '--public-key', keyFile);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`Start: entry ${signed.seq + 1}'s prevHash is proven by the signed head at entry ${signed.seq}.`);
  });

  it('archived entries are exported with their details from the archive and verify', async () => {
    const firm = await newOrganizationWithTotp(t, 'Archived Export LLP');
    // Entries as old as entries written 200 days ago (their time is part of their hash).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(Date.now() - 200 * 86_400_000));
      const audit = auditFor({ organizationId: firm.organizationId, actor: null });
      await t.ctx.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 5; i++) await audit(trx, 'CREATE_MATTER', { table: 'matters', id: `old-${i}` }, { matterName: `Old ${i}` });
      });
    } finally {
      vi.useRealTimers();
    }
    // The archival an operator runs with `run-job archive-audit`: no actor, then the head is signed.
    const archived = await archiveOrganizationLogs(t.ctx, firm.organizationId, { dryRun: false });
    expect(archived).toMatchObject({ archivedCount: 5, dryRun: false, batches: 1 });
    const recorded = await t.ctx.db
      .selectFrom('auditLogs')
      .select(['action', 'actorId'])
      .where('chainKey', '=', firm.organizationId)
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(recorded).toEqual({ action: 'AUDIT_LOG_ARCHIVED', actorId: null });

    const exportToken = await systemMfaToken(firm, 'EXPORT_AUDIT_LOGS');
    const res = await firm.client.get('/_api/audit-logs/chain-export', { 'x-mfa-token': exportToken });
    expect(res.statusCode).toBe(200);
    const entries = linesOf(res.body)
      .map((l) => JSON.parse(l) as { type?: string; archived?: boolean; details?: unknown })
      .filter((l) => l.type === 'entry' && l.archived);
    expect(entries).toHaveLength(5);
    expect(entries[0]!.details).toEqual({ matterName: 'Old 0' });
    const r = await verify(await write('archived.ndjson', res.body), '--public-key', keyFile);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('an edited entry, a dropped line, two lines swapped and a forged head each exit 1 naming the entry', async () => {
    const lines = linesOf(genuine);
    const seq = 3;
    const at = lineOfEntry(lines, seq);

    const edited = [...lines];
    const entry = JSON.parse(edited[at]!) as { details: Record<string, unknown> };
    edited[at] = canonicalJson({ ...entry, details: { ...entry.details, matterName: 'Something else' } });
    let r = await verify(await write('edited.ndjson', joined(edited)), '--public-key', keyFile);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(`FAILED: first bad entry ${seq}: entry ${seq}: altered`);
    expect(r.stdout).not.toContain('OK');

    const dropped = lines.filter((_, i) => i !== at);
    r = await verify(await write('dropped.ndjson', joined(dropped)), '--public-key', keyFile);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`FAILED: first bad entry ${seq}: entry ${seq} is missing`);
    expect(r.stdout).toContain('the lines before the summary are not the ones it signed');

    const swapped = [...lines];
    [swapped[at], swapped[at + 1]] = [swapped[at + 1]!, swapped[at]!];
    r = await verify(await write('swapped.ndjson', joined(swapped)), '--public-key', keyFile);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`FAILED: first bad entry ${seq}:`);
    expect(r.stdout).toContain(`entry ${seq} is out of order`);

    // The head re-signed with a key of the forger's own, keyId and publicKey made to match it.
    const headAt = lines.findIndex((l) => l.includes('"kind":"audit-chain-head"'));
    const head = JSON.parse(lines[headAt]!) as { payload: { seq: number } };
    const forger = generateKeyPairSync('ed25519');
    const publicKey = forger.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const forged = [...lines];
    forged[headAt] = canonicalJson({
      ...head,
      keyId: keyIdOf(publicKey),
      publicKey,
      signature: sign(null, Buffer.from(canonicalJson(head.payload)), forger.privateKey).toString('base64'),
    });
    r = await verify(await write('forged.ndjson', joined(forged)), '--fingerprint', fingerprint);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`FAILED: first bad entry ${head.payload.seq}: the signed head at entry ${head.payload.seq}`);
    expect(r.stdout).toContain(`not the trusted fingerprint ${fingerprint}`);
  });

  it('without a trusted key it exits 2 and verifies nothing', async () => {
    const r = await verify(await write('untrusted.ndjson', genuine));
    expect(r.status).toBe(2);
    expect(r.stdout).not.toContain('OK');
    expect(r.stderr).toContain('No trusted key was given');
    expect(r.stderr).toContain(fingerprint);
  });
});
