/**
 * GET /_api/vault/register: the register of every vaulted matter the reader may see, as CSV or printable HTML,
 * with each matter's certificate id and key fingerprint. Members with canViewVaulted only; the reader's
 * organization only; cells a spreadsheet would run as formulas are neutralised; each export is audited.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VAULT_MSG, VAULT_REGISTER_COLUMNS, VAULT_REGISTER_MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, auditActions, createMatter, newOrganization, type Member } from '../../../test/factories.js';

let t: TestApp;
let admin: Member;
let reviewer: Member;
let noVault: Member;
let guest: Member;
let other: Member;
const FINGERPRINT = 'f'.repeat(64);
let certificateId: string;

/** Marks a matter vaulted with two objects in the vault and, when asked, its vault certificate. */
async function vault(matterId: string, organizationId: string, certificate: boolean) {
  await t.ctx.db
    .updateTable('matters')
    .set({ isVaulted: true, status: 'Vaulted', vaultedAt: new Date('2026-01-02T03:04:05.000Z'), legalHold: true })
    .where('id', '=', matterId)
    .execute();
  for (const size of [100, 250]) {
    await t.ctx.db
      .insertInto('vaultObjects')
      .values({
        organizationId,
        matterId,
        nodeId: randomUUID(),
        path: `/f-${size}.pdf`,
        objectKey: `vault/${organizationId}/${matterId}/${randomUUID()}`,
        sha256: 'a'.repeat(64),
        size,
        retainUntil: new Date(Date.now() + 86_400_000),
        legalHold: true,
        state: 'vaulted',
      })
      .execute();
  }
  if (!certificate) return null;
  const row = await t.ctx.db
    .insertInto('vaultCertificates')
    .values({
      organizationId,
      matterId,
      kind: 'vault',
      objectKey: `certificates/${matterId}.json`,
      sha256: 'b'.repeat(64),
      issuedAt: new Date(),
      body: JSON.stringify({ payload: {}, algorithm: 'Ed25519', keyId: FINGERPRINT, publicKey: 'k', signature: 's' }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Register LLP');
  reviewer = await addMember(t, admin.organizationId, 'user', { canViewVaulted: true }, 'Rita Reviewer');
  noVault = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false });
  guest = await addMember(t, admin.organizationId, 'guest', { canViewVaulted: true });
  other = await newOrganization(t, 'Other & Partners');
  const smith = await createMatter(admin.client, { matterName: 'Smith v Jones', matterNumber: 'MAT-2026-001', clientName: 'Smith Ltd' });
  certificateId = (await vault(smith.id, admin.organizationId, true))!;
  // A matter whose name and client a spreadsheet would read as formulas.
  const evil = await createMatter(admin.client, { matterName: '=HYPERLINK("http://x")', clientName: '+cmd|calc' });
  await vault(evil.id, admin.organizationId, false);
  await createMatter(admin.client, { matterName: 'Still open' });
  const theirs = await createMatter(other.client, { matterName: 'Elsewhere vaulted' });
  await vault(theirs.id, other.organizationId, true);
});
afterAll(() => t.shutdown());

/** A minimal RFC 4180 reader (quoted fields with doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

const register = (m: Member, format?: string) => m.client.get(`/_api/vault/register${format ? `?format=${format}` : ''}`);

describe('GET /_api/vault/register', () => {
  it('answers the CSV of every vaulted matter of the organization, with certificate id and key fingerprint', async () => {
    const res = await register(reviewer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="strongroom_vault_register_.*\.csv"/);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(res.body.slice(1));
    expect(header).toEqual([...VAULT_REGISTER_COLUMNS]);
    expect(rows.map((r) => r[0])).toEqual(['\'=HYPERLINK("http://x")', 'Smith v Jones']);
    const smith = rows.find((r) => r[0] === 'Smith v Jones')!;
    expect(smith).toEqual([
      'Smith v Jones',
      'MAT-2026-001',
      'Smith Ltd',
      '2026-01-02T03:04:05.000Z',
      expect.any(String),
      'Yes',
      '2',
      '350',
      certificateId,
      FINGERPRINT,
    ]);
    // Not yet certified: the certificate cells are empty.
    expect(rows[0]!.slice(8)).toEqual(['', '']);
  });

  it('neutralises cells a spreadsheet would run as a formula', async () => {
    const rows = parseCsv((await register(admin, 'csv')).body.slice(1));
    const evil = rows.find((r) => r[0]!.includes('HYPERLINK'))!;
    expect(evil[0]).toBe('\'=HYPERLINK("http://x")');
    expect(evil[2]).toBe("'+cmd|calc");
  });

  it('never lists another organization’s matters, nor matters not vaulted', async () => {
    const mine = (await register(admin)).body;
    expect(mine).not.toContain('Elsewhere vaulted');
    expect(mine).not.toContain('Still open');
    const theirs = (await register(other)).body;
    expect(theirs).toContain('Elsewhere vaulted');
    expect(theirs).not.toContain('Smith v Jones');
  });

  it('answers a printable HTML report with every value escaped and print styles', async () => {
    const res = await register(admin, 'html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('@media print');
    expect(res.body).toContain('<td>Smith v Jones</td>');
    expect(res.body).toContain(FINGERPRINT);
    expect(res.body).toContain(VAULT_REGISTER_MSG.notIssued);
    expect(res.body).toContain('=HYPERLINK(&quot;http://x&quot;)');
    expect(res.body).not.toMatch(/<script/i);
  });

  it('refuses a member without canViewVaulted (403) and guests, and a bad format (400)', async () => {
    const denied = await register(noVault);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe(VAULT_MSG.viewPermissionDenied);
    expect((await register(guest)).statusCode).toBe(403);
    const bad = await register(admin, 'xlsx');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(VAULT_REGISTER_MSG.formatInvalid);
  });

  it('audits each export with its format and row count', async () => {
    await register(reviewer, 'html');
    const entry = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'VAULT_REGISTER_EXPORTED').at(-1);
    expect(entry?.details).toMatchObject({ format: 'html', rowCount: 2 });
  });
});
