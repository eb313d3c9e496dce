/**
 * The vault's review calls as a reviewer and an outsider see them: GET /_api/vault/list, /detail, /audit and
 * /report, and the download of a vaulted file. Vaulted matters are made by setting the rows the vault start
 * and its transfer write (matter flags, vault_transfers, vault_objects), so each case states exactly the
 * vault it reads.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MATTER_MSG, MSG, VAULT_MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createFolder,
  createMatter,
  newOrganization,
  ok,
  uploadFile,
  type Member,
} from '../../../test/factories.js';

let t: TestApp;
let admin: Member;
let reviewer: Member;
let noVault: Member;
let noRetrieve: Member;
let guest: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  reviewer = await addMember(
    t,
    admin.organizationId,
    'user',
    { canViewVaulted: true, canRetrieve: true, canRename: true },
    'Rita Reviewer',
  );
  noVault = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false, canRetrieve: true });
  noRetrieve = await addMember(t, admin.organizationId, 'user', { canViewVaulted: true, canRetrieve: false });
  guest = await addMember(t, admin.organizationId, 'guest', { canViewVaulted: true, canRetrieve: true });
  other = await newOrganization(t, 'Other & Partners');
});
afterAll(() => t.shutdown());

const DAY = 86_400_000;

type VaultOptions = {
  vaultedAt?: Date;
  retentionExpiresAt?: Date | null;
  legalHold?: boolean;
  transfer?: 'pending' | 'transferring' | 'completed' | 'failed' | null;
  objects?: Array<{
    size: number;
    verified?: boolean | null;
    state?: 'vaulted' | 'destroyed';
    path?: string;
    key?: string;
    nodeId?: string;
  }>;
};

/** Marks a matter vaulted as the vault start does, and writes the transfer's rows as its job would. */
async function vault(m: { id: string }, organizationId: string, o: VaultOptions = {}) {
  const vaultedAt = o.vaultedAt ?? new Date();
  await t.ctx.db
    .updateTable('matters')
    .set({
      isVaulted: true,
      status: 'Vaulted',
      vaultedAt,
      retentionExpiresAt: o.retentionExpiresAt === undefined ? new Date(vaultedAt.getTime() + 7 * 365 * DAY) : o.retentionExpiresAt,
      legalHold: o.legalHold ?? true,
      holdReason: (o.legalHold ?? true) ? 'Applied automatically when the matter was vaulted' : null,
    })
    .where('id', '=', m.id)
    .execute();
  if (o.transfer !== null) {
    await t.ctx.db
      .insertInto('vaultTransfers')
      .values({ matterId: m.id, organizationId, state: o.transfer ?? 'completed', retentionExpiresAt: null })
      .execute();
  }
  for (const [i, obj] of (o.objects ?? []).entries()) {
    const checked = obj.verified === undefined || obj.verified === null ? null : new Date(Date.now() - i * 1000);
    await t.ctx.db
      .insertInto('vaultObjects')
      .values({
        organizationId,
        matterId: m.id,
        nodeId: obj.nodeId ?? randomUUID(),
        path: obj.path ?? `/file-${i}.pdf`,
        objectKey: obj.key ?? `vault/${organizationId}/${m.id}/${randomUUID()}`,
        sha256: 'a'.repeat(64),
        size: obj.size,
        retainUntil: new Date(Date.now() + 365 * DAY),
        legalHold: true,
        state: obj.state ?? 'vaulted',
        lastVerifiedAt: checked,
        lastVerificationOk: obj.verified ?? null,
      })
      .execute();
  }
}

const list = (c: Member, query = '') => c.client.get(`/_api/vault/list${query ? `?${query}` : ''}`);

describe('GET /_api/vault/list', () => {
  let firm: Member;
  const names: Record<string, { id: string }> = {};
  beforeAll(async () => {
    firm = await newOrganization(t, 'List & Co');
    const base = Date.UTC(2026, 0, 1);
    // Five vaulted matters with equal and distinct sort values, two open ones.
    const spec: Array<[string, string | null, number, number | null, boolean]> = [
      ['alpha estate', 'Zeta Holdings', 3, 5, true],
      ['Bravo 100% claim', 'acme corp', 1, 7, false],
      ['charlie_v_delta', 'Acme Corp', 2, null, true],
      ['Delta lease', null, 2, 5, false],
      ['echo appeal', 'Bravo Ltd', 5, 1, true],
    ];
    for (const [name, client, vaultedDay, years, hold] of spec) {
      const m = await createMatter(firm.client, { matterName: name, clientName: client ?? 'x' });
      if (client === null) await t.ctx.db.updateTable('matters').set({ clientName: null }).where('id', '=', m.id).execute();
      await vault(m, firm.organizationId, {
        vaultedAt: new Date(base + vaultedDay * DAY),
        retentionExpiresAt: years === null ? null : new Date(base + years * 365 * DAY),
        legalHold: hold,
      });
      names[name] = m;
    }
    await createMatter(firm.client, { matterName: 'open alpha', clientName: 'Acme Corp' });
    await createMatter(firm.client, { matterName: 'open bravo', clientName: 'Zeta Holdings' });
  });

  it('answers only the vaulted matters of the organization, sorted by name ascending by default, with totalCount', async () => {
    const body = ok(await list(firm));
    expect(body.totalCount).toBe(5);
    expect(body.matters.map((m: { matterName: string }) => m.matterName)).toEqual([
      'alpha estate',
      'Bravo 100% claim',
      'charlie_v_delta',
      'Delta lease',
      'echo appeal',
    ]);
    expect(
      body.matters.every((m: { organizationId: string; isVaulted: boolean }) => m.organizationId === firm.organizationId && m.isVaulted),
    ).toBe(true);
    // Another organization sees none of them.
    const theirs = ok(await list(other, 'pageSize=100'));
    expect(theirs.matters.some((m: { organizationId: string }) => m.organizationId === firm.organizationId)).toBe(false);
  });

  it('searches the matter name or the client, ignoring case, with % and _ taken literally', async () => {
    const q = async (s: string) =>
      ok(await list(firm, `searchQuery=${encodeURIComponent(s)}`)).matters.map((m: { matterName: string }) => m.matterName);
    expect(await q('ACME')).toEqual(['Bravo 100% claim', 'charlie_v_delta']);
    expect(await q('bravo')).toEqual(['Bravo 100% claim', 'echo appeal']);
    expect(await q('%')).toEqual(['Bravo 100% claim']);
    expect(await q('_')).toEqual(['charlie_v_delta']);
    expect(await q('open')).toEqual([]);
    // A blank search is no search.
    expect(ok(await list(firm, 'searchQuery=%20%20')).totalCount).toBe(5);
    expect(ok(await list(firm, 'searchQuery=acme')).totalCount).toBe(2);
  });

  it('filters on the legal hold (all, true, false)', async () => {
    const names = async (v: string) => ok(await list(firm, `legalHold=${v}`)).matters.map((m: { matterName: string }) => m.matterName);
    expect(await names('true')).toEqual(['alpha estate', 'charlie_v_delta', 'echo appeal']);
    expect(await names('false')).toEqual(['Bravo 100% claim', 'Delta lease']);
    expect((await names('all')).length).toBe(5);
    expect(ok(await list(firm, 'legalHold=true&searchQuery=acme')).totalCount).toBe(1);
  });

  it('sorts on each of the four fields in both directions, ties broken by id, nulls last ascending', async () => {
    const all = ok(await list(firm, 'pageSize=100')).matters as Array<Record<string, string | null>>;
    const byId = (a: Record<string, string | null>, b: Record<string, string | null>) => (a.id! < b.id! ? -1 : a.id! > b.id! ? 1 : 0);
    const key = (field: string, m: Record<string, string | null>) =>
      field === 'matterName' || field === 'clientName'
        ? (m[field]?.toLowerCase() ?? null)
        : m[field]
          ? new Date(m[field]!).getTime()
          : null;
    for (const field of ['matterName', 'clientName', 'vaultedAt', 'retentionExpiresAt']) {
      for (const dir of ['asc', 'desc'] as const) {
        const expected = [...all].sort((a, b) => {
          const ka = key(field, a);
          const kb = key(field, b);
          let c: number;
          if (ka === kb) c = 0;
          else if (ka === null) c = 1;
          else if (kb === null) c = -1;
          else c = ka < kb ? -1 : 1;
          if (c === 0) c = byId(a, b);
          return dir === 'asc' ? c : -c;
        });
        // Walk the pages two at a time: together they are the whole list in order, no row twice.
        const seen: string[] = [];
        for (let page = 1; page <= 3; page++) {
          const body = ok(await list(firm, `sortBy=${field}&sortDirection=${dir}&page=${page}&pageSize=2`));
          expect(body.totalCount).toBe(5);
          seen.push(...body.matters.map((m: { id: string }) => m.id));
        }
        expect(seen, `${field} ${dir}`).toEqual(expected.map((m) => m.id));
      }
    }
    // The page the Vault page opens with: vaulted date, newest first.
    const page = ok(await list(firm, 'sortBy=vaultedAt&sortDirection=desc&pageSize=1'));
    expect(page.matters[0].matterName).toBe('echo appeal');
    // Past the last page: no rows, the count still told.
    expect(ok(await list(firm, 'page=9&pageSize=2'))).toEqual({ matters: [], totalCount: 5 });
  });

  it('answers each matter with its transfer state, files, bytes and last verification', async () => {
    const a = await createMatter(firm.client, { matterName: 'zz facts one' });
    const b = await createMatter(firm.client, { matterName: 'zz facts two' });
    const c = await createMatter(firm.client, { matterName: 'zz facts three' });
    await vault(a, firm.organizationId, {
      transfer: 'completed',
      objects: [
        { size: 100, verified: true },
        { size: 250, verified: false },
        { size: 50, verified: null },
        { size: 999, state: 'destroyed' },
      ],
    });
    await vault(b, firm.organizationId, { transfer: 'transferring', objects: [{ size: 10, verified: true }] });
    await vault(c, firm.organizationId, { transfer: null });
    const rows = ok(await list(firm, 'searchQuery=zz%20facts&pageSize=10')).matters as Array<Record<string, unknown>>;
    const byName = Object.fromEntries(rows.map((r) => [r.matterName, r]));
    expect(byName['zz facts one']).toMatchObject({
      transferState: 'completed',
      fileCount: 3,
      totalBytes: 400,
      lastVerification: { result: 'failed', objectsChecked: 2, failures: 1 },
    });
    expect(new Date((byName['zz facts one']!.lastVerification as { checkedAt: string }).checkedAt).getTime()).toBeGreaterThan(
      Date.now() - 60_000,
    );
    expect(byName['zz facts two']).toMatchObject({
      transferState: 'transferring',
      fileCount: 1,
      totalBytes: 10,
      lastVerification: { result: 'passed', objectsChecked: 1, failures: 0 },
    });
    expect(byName['zz facts three']).toMatchObject({ transferState: 'pending', fileCount: 0, totalBytes: 0, lastVerification: null });
  });

  it('refuses bad parameters with the texts of the contract', async () => {
    const cases: Array<[string, string]> = [
      ['sortBy=created_at', VAULT_MSG.invalidSortBy],
      ['sortDirection=up', VAULT_MSG.invalidSortDirection],
      ['legalHold=yes', VAULT_MSG.invalidLegalHold],
      ['page=0', VAULT_MSG.pagePositive],
      ['page=-1', VAULT_MSG.pagePositive],
      ['page=1.5', VAULT_MSG.pagePositive],
      ['page=abc', VAULT_MSG.pagePositive],
      ['pageSize=101', VAULT_MSG.pageSizeMax],
      ['pageSize=0', VAULT_MSG.pageSizeMax],
    ];
    for (const [query, message] of cases) {
      const r = await list(firm, query);
      expect(r.statusCode, query).toBe(400);
      expect(r.json(), query).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
    }
    expect(ok(await list(firm, 'pageSize=100')).matters.length).toBeLessThanOrEqual(100);
  });

  it('is for holders of canViewVaulted: a user without it gets 403 with the vault text, a guest Access denied', async () => {
    expect(ok(await list(admin)).totalCount).toBeGreaterThanOrEqual(0);
    expect(ok(await list(reviewer)).totalCount).toBeGreaterThanOrEqual(0);
    const r = await list(noVault);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ error: VAULT_MSG.viewPermissionDenied, code: 'PERMISSION_ERROR' });
    const g = await list(guest);
    expect(g.statusCode).toBe(403);
    expect(g.json().error).toBe(MSG.accessDenied('guest'));
    const anon = await t.app.inject({ method: 'GET', url: '/_api/vault/list' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('GET /_api/vault/detail', () => {
  let vaulted: { id: string };
  let open: { id: string };
  beforeAll(async () => {
    vaulted = await createMatter(admin.client, { matterName: 'Detail Vaulted' });
    const folder = await createFolder(admin.client, vaulted.id, 'Pleadings');
    await uploadFile(t, admin.client, vaulted.id, 'claim.pdf', Buffer.from('claim'), folder.id);
    await vault(vaulted, admin.organizationId, { objects: [{ size: 5, verified: true }] });
    open = await createMatter(admin.client, { matterName: 'Detail Open' });
  });

  it('answers the vaulted matter with its facts and its tree', async () => {
    const body = ok(await reviewer.client.get(`/_api/vault/detail?matterId=${vaulted.id}`));
    expect(body.matter).toMatchObject({
      id: vaulted.id,
      matterName: 'Detail Vaulted',
      status: 'Vaulted',
      isVaulted: true,
      legalHold: true,
      transferState: 'completed',
      fileCount: 1,
      totalBytes: 5,
      lastVerification: { result: 'passed', objectsChecked: 1, failures: 0 },
    });
    expect(body.nodes).toHaveLength(1);
    expect(body.nodes[0]).toMatchObject({ name: 'Pleadings', nodeType: 'folder', path: '/Pleadings' });
    expect(body.nodes[0].children[0]).toMatchObject({ name: 'claim.pdf', nodeType: 'file', path: '/Pleadings/claim.pdf' });
  });

  it("answers 404 for another organization's matter, an unknown id and a matter that is not vaulted", async () => {
    const theirs = await other.client.get(`/_api/vault/detail?matterId=${vaulted.id}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ error: MATTER_MSG.matterNotFound, code: 'NOT_FOUND' });
    expect((await admin.client.get(`/_api/vault/detail?matterId=${randomUUID()}`)).statusCode).toBe(404);
    const notVaulted = await admin.client.get(`/_api/vault/detail?matterId=${open.id}`);
    expect(notVaulted.statusCode).toBe(404);
    expect(notVaulted.json()).toMatchObject({ error: VAULT_MSG.notVaulted, code: 'NOT_FOUND' });
  });

  it('validates the matter id and needs canViewVaulted', async () => {
    const missing = await admin.client.get('/_api/vault/detail');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(VAULT_MSG.matterIdRequired);
    const bad = await admin.client.get('/_api/vault/detail?matterId=123');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(VAULT_MSG.invalidMatterId);
    const denied = await noVault.client.get(`/_api/vault/detail?matterId=${vaulted.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe(VAULT_MSG.viewPermissionDenied);
    expect((await guest.client.get(`/_api/vault/detail?matterId=${vaulted.id}`)).statusCode).toBe(403);
  });
});

describe('GET /_api/vault/audit', () => {
  let matter: { id: string };
  let elsewhere: { id: string };
  beforeAll(async () => {
    matter = await createMatter(admin.client, { matterName: 'Audit Trail' });
    const folder = await createFolder(admin.client, matter.id, 'Evidence');
    await reviewer.client.post('/_api/nodes/rename', { nodeId: folder.id, newName: 'Exhibits' });
    await admin.client.post('/_api/nodes/rename', { nodeId: folder.id, newName: 'Evidence' });
    elsewhere = await createMatter(admin.client, { matterName: 'Unrelated' });
    await createFolder(admin.client, elsewhere.id, 'Other');
    await vault(matter, admin.organizationId);
    // A vault entry naming the matter only in its details, as a background job writes it.
    await t.ctx.db.transaction().execute(async (trx) => {
      const { auditFor } = await import('../../shared/audit.js');
      await auditFor({ organizationId: admin.organizationId, actor: null })(trx, 'VAULT_TRANSFER_COMPLETED', null, {
        matterId: matter.id,
        files: 0,
        bytes: 0,
      });
    });
    // Sixty more entries about the folder, for the paging.
    await t.ctx.db.transaction().execute(async (trx) => {
      const { auditFor } = await import('../../shared/audit.js');
      for (let i = 0; i < 60; i++)
        await auditFor({ organizationId: admin.organizationId, actor: null })(
          trx,
          'DOWNLOAD_FILE',
          { table: 'nodes', id: folder.id },
          { n: i },
        );
    });
  });

  it("answers the matter's entries (matter, its nodes, vault entries naming it), newest first, 50 a page", async () => {
    const first = ok(await reviewer.client.get(`/_api/vault/audit?matterId=${matter.id}`));
    expect(first.totalCount).toBe(65);
    expect(first.logs).toHaveLength(50);
    const second = ok(await reviewer.client.get(`/_api/vault/audit?matterId=${matter.id}&page=2`));
    expect(second.logs).toHaveLength(15);
    const all = [...first.logs, ...second.logs] as Array<{
      id: string;
      action: string;
      timestamp: string;
      actorName: string | null;
      actorEmail: string | null;
      details: Record<string, unknown>;
    }>;
    expect(new Set(all.map((l) => l.id)).size).toBe(65);
    const times = all.map((l) => new Date(l.timestamp).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.slice(0, 60).every((l) => l.action === 'DOWNLOAD_FILE')).toBe(true);
    expect(all.slice(60).map((l) => l.action)).toEqual([
      'VAULT_TRANSFER_COMPLETED',
      'RENAME_NODE',
      'RENAME_NODE',
      'CREATE_FOLDER',
      'CREATE_MATTER',
    ]);
    const rename = all.find((l) => l.action === 'RENAME_NODE' && l.details.to === 'Exhibits')!;
    expect(rename).toMatchObject({ actorName: 'Rita Reviewer', actorEmail: reviewer.email });
    expect(all.find((l) => l.action === 'VAULT_TRANSFER_COMPLETED')).toMatchObject({ actorName: null, actorEmail: null });
    // Nothing of the other matter.
    expect(all.some((l) => l.details.matterId === elsewhere.id)).toBe(false);
    const small = ok(await reviewer.client.get(`/_api/vault/audit?matterId=${matter.id}&page=3&pageSize=30`));
    expect(small.logs).toHaveLength(5);
    expect(ok(await reviewer.client.get(`/_api/vault/audit?matterId=${matter.id}&pageSize=100`)).logs).toHaveLength(65);
  });

  it('validates, needs canViewVaulted, and answers 404 outside the organization or for a matter not vaulted', async () => {
    for (const [q, message] of [
      [`matterId=${matter.id}&pageSize=101`, VAULT_MSG.pageSizeMax],
      [`matterId=${matter.id}&page=0`, VAULT_MSG.pagePositive],
    ] as const) {
      const r = await admin.client.get(`/_api/vault/audit?${q}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(message);
    }
    expect((await admin.client.get('/_api/vault/audit?matterId=nope')).statusCode).toBe(400);
    expect((await noVault.client.get(`/_api/vault/audit?matterId=${matter.id}`)).json().error).toBe(VAULT_MSG.viewPermissionDenied);
    expect((await guest.client.get(`/_api/vault/audit?matterId=${matter.id}`)).statusCode).toBe(403);
    expect((await other.client.get(`/_api/vault/audit?matterId=${matter.id}`)).statusCode).toBe(404);
    const open = await admin.client.get(`/_api/vault/audit?matterId=${elsewhere.id}`);
    expect(open.statusCode).toBe(404);
    expect(open.json().error).toBe(VAULT_MSG.notVaulted);
  });
});

describe('GET /_api/vault/report', () => {
  let matter: { id: string; matterNumber: string };
  beforeAll(async () => {
    matter = await createMatter(admin.client, {
      matterName: 'Smith <script>alert(1)</script> & "Jones"',
      clientName: "O'Brien <b>Ltd</b>",
      matterNumber: 'MAT-2026-901',
    });
    await vault(matter, admin.organizationId, {
      objects: [{ size: 12, verified: false, path: '/<img src=x onerror=alert(1)>.pdf' }],
    });
    const object = await t.ctx.db
      .selectFrom('vaultObjects')
      .select(['id', 'matterId', 'organizationId'])
      .where('matterId', '=', matter.id)
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('vaultVerifications')
      .values({
        organizationId: object.organizationId,
        matterId: object.matterId,
        vaultObjectId: object.id,
        checkedAt: new Date(),
        ok: false,
        problem: 'sha256 <x> instead of <y>',
      })
      .execute();
  });

  it('downloads a print-ready HTML report with every value escaped, no script, and audits the export', async () => {
    const r = await reviewer.client.get(`/_api/vault/report?matterId=${matter.id}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-disposition']).toBe('attachment; filename="strongroom_vault_report_MAT-2026-901.html"');
    const html = r.body;
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<[^>]*\son\w+=/i);
    expect(html).toContain('Smith &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Jones&quot;');
    expect(html).toContain('O&#39;Brien &lt;b&gt;Ltd&lt;/b&gt;');
    expect(html).toContain('/&lt;img src=x onerror=alert(1)&gt;.pdf');
    expect(html).toContain('sha256 &lt;x&gt; instead of &lt;y&gt;');
    expect(html).toContain('Acme LLP');
    expect(html).toContain('The vault certificate is written when the transfer completes.');
    expect(html).toContain(
      'Ada Admin opened the matter “Smith &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Jones&quot;” as MAT-2026-901.',
    );
    const audit = await auditActions(t, admin.organizationId);
    expect(audit.at(-1)).toMatchObject({
      action: 'VAULT_REPORT_EXPORTED',
      targetId: matter.id,
      details: { matterId: matter.id, files: 1 },
    });
  });

  it('needs canViewVaulted and answers 404 outside the organization', async () => {
    expect((await noVault.client.get(`/_api/vault/report?matterId=${matter.id}`)).statusCode).toBe(403);
    expect((await guest.client.get(`/_api/vault/report?matterId=${matter.id}`)).statusCode).toBe(403);
    expect((await other.client.get(`/_api/vault/report?matterId=${matter.id}`)).statusCode).toBe(404);
    expect((await admin.client.get('/_api/vault/report?matterId=x')).json().error).toBe(VAULT_MSG.invalidMatterId);
  });
});

describe('GET /_api/nodes/download-url for a vaulted file', () => {
  let file: { id: string; storagePath: string };
  let matter: { id: string };
  beforeAll(async () => {
    matter = await createMatter(admin.client, { matterName: 'Download Vaulted' });
    file = await uploadFile(t, admin.client, matter.id, 'deed.pdf', Buffer.from('the deed'));
    await vault(matter, admin.organizationId);
  });

  it('needs both canViewVaulted and canRetrieve', async () => {
    ok(await reviewer.client.get(`/_api/nodes/download-url?nodeId=${file.id}`));
    expect((await noVault.client.get(`/_api/nodes/download-url?nodeId=${file.id}`)).statusCode).toBe(403);
    expect((await noRetrieve.client.get(`/_api/nodes/download-url?nodeId=${file.id}`)).statusCode).toBe(403);
    const audit = await auditActions(t, admin.organizationId);
    expect(audit.filter((e) => e.action === 'DOWNLOAD_FILE' && e.targetId === file.id).at(-1)?.details).toMatchObject({ vaulted: true });
  });

  it('starts a restore for a storage class that needs one and answers 409 saying when the file will be ready', async () => {
    const archived = {
      key: file.storagePath,
      versionId: null,
      size: 8,
      etag: '"x"',
      lock: { mode: 'COMPLIANCE' as const, retainUntil: new Date(Date.now() + DAY), legalHold: true },
      storageClass: 'DEEP_ARCHIVE',
      restore: { required: true as const, ongoing: false, readyUntil: null },
    };
    const info = vi.spyOn(t.ctx.store, 'vaultInfo').mockResolvedValue(archived);
    const restore = vi.spyOn(t.ctx.store, 'requestRestore').mockResolvedValue({ required: true, ongoing: true, readyUntil: null });
    try {
      const r = await reviewer.client.get(`/_api/nodes/download-url?nodeId=${file.id}`);
      expect(r.statusCode).toBe(409);
      const body = r.json();
      expect(body.code).toBe('CONFLICT_ERROR');
      expect(body.details.reason).toBe('RESTORE_PENDING');
      const readyBy = new Date(body.details.readyBy).getTime();
      expect(readyBy).toBeGreaterThan(Date.now() + 11 * 3_600_000);
      expect(body.error).toBe(VAULT_MSG.restoreStarted({ readyBy: body.details.readyBy, started: true }));
      expect(restore).toHaveBeenCalledWith(file.storagePath, expect.any(Number));
      // A restore under way is not started again.
      info.mockResolvedValueOnce({ ...archived, restore: { required: true, ongoing: true, readyUntil: null } });
      restore.mockClear();
      const again = await reviewer.client.get(`/_api/nodes/download-url?nodeId=${file.id}`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toContain('A restore is already under way');
      expect(restore).not.toHaveBeenCalled();
    } finally {
      info.mockRestore();
      restore.mockRestore();
    }
  });

  it('answers that the file was deleted once its retention ended and its vault object is gone', async () => {
    const info = vi.spyOn(t.ctx.store, 'vaultInfo').mockResolvedValue(null);
    try {
      const r = await reviewer.client.get(`/_api/nodes/download-url?nodeId=${file.id}`);
      expect(r.statusCode).toBe(404);
      expect(r.json().error).toBe(VAULT_MSG.fileDestroyed);
    } finally {
      info.mockRestore();
    }
  });
});
