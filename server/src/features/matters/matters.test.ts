import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATTER_MSG, MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createFolder,
  createMatter,
  newOrganization,
  ok,
  setMatterFlags,
  type Member,
} from '../../../test/factories.js';

let t: TestApp;
let admin: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  other = await newOrganization(t, 'Other & Partners');
});
afterAll(() => t.shutdown());

const year = new Date().getUTCFullYear();

describe('POST /_api/matters/create', () => {
  it('creates a matter, generates MAT-YYYY-NNN numbers in sequence and audits it', async () => {
    const a = await createMatter(admin.client, {
      matterName: 'Smith v Jones',
      clientName: 'Smith Ltd',
      description: 'Contract dispute',
      responsibleAttorney: 'Jane Counsel',
    });
    expect(a).toMatchObject({
      matterName: 'Smith v Jones',
      clientName: 'Smith Ltd',
      description: 'Contract dispute',
      responsibleLawyer: 'Jane Counsel',
      status: 'Open',
      isVaulted: false,
      legalHold: false,
      holdReason: null,
      retentionExpiresAt: null,
      vaultedAt: null,
      version: 1,
      organizationId: admin.organizationId,
      matterNumber: `MAT-${year}-001`,
    });
    expect(new Date(a.createdAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const b = await createMatter(admin.client);
    expect(b.matterNumber).toBe(`MAT-${year}-002`);
    // Another organization counts on its own.
    expect((await createMatter(other.client)).matterNumber).toBe(`MAT-${year}-001`);
    // A number typed by hand is skipped by the counter.
    await createMatter(admin.client, { matterNumber: `MAT-${year}-003` });
    expect((await createMatter(admin.client)).matterNumber).toBe(`MAT-${year}-004`);
    const audit = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'CREATE_MATTER');
    expect(audit.length).toBe(4);
    expect(audit[0]).toMatchObject({
      targetId: a.id,
      details: { matterName: 'Smith v Jones', matterNumber: `MAT-${year}-001`, numberGenerated: true },
    });
  });

  it('refuses a number that exists in the organization, ignoring case, with a 409 the dialog maps to the field', async () => {
    await createMatter(admin.client, { matterNumber: 'MAT-2025-100' });
    const dup = await admin.client.post('/_api/matters/create', {
      matterName: 'X',
      clientName: 'Y',
      responsibleAttorney: 'Z',
      matterNumber: 'MAT-2025-100',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      error: MATTER_MSG.matterNumberExists,
      code: 'CONFLICT_ERROR',
      details: { reason: 'NUMBER_TAKEN', field: 'matterNumber' },
    });
    expect(dup.json().error).toContain('already exists');
    // The same number in another organization is fine.
    expect((await createMatter(other.client, { matterNumber: 'MAT-2025-100' })).matterNumber).toBe('MAT-2025-100');
  });

  it('gives every concurrent creation its own number', async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => createMatter(other.client)));
    const numbers = made.map((m) => m.matterNumber);
    expect(new Set(numbers).size).toBe(6);
    for (const n of numbers) expect(n).toMatch(new RegExp(`^MAT-${year}-\\d{3}$`));
  });

  it('lets one of many concurrent creations with the same typed number through; the others are told the number is taken', async () => {
    const number = `MAT-${year}-950`;
    const tries = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        admin.client.post('/_api/matters/create', {
          matterName: `Same number ${i}`,
          clientName: 'Y',
          responsibleAttorney: 'Z',
          matterNumber: number,
        }),
      ),
    );
    expect(tries.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of tries.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({
        error: MATTER_MSG.matterNumberExists,
        code: 'CONFLICT_ERROR',
        details: { reason: 'NUMBER_TAKEN', field: 'matterNumber' },
      });
    }
    const stored = await t.ctx.db
      .selectFrom('matters')
      .select('matterName')
      .where('organizationId', '=', admin.organizationId)
      .where('matterNumber', '=', number)
      .execute();
    expect(stored).toHaveLength(1);
  });

  it('answers a generated number that another creation committed first as a race to send again, and a typed one as taken', async () => {
    // Another creation committing the same number between this one's check and its insert: a trigger inserts that
    // row just before the probe's own, so the unique index refuses the probe as it would in that instant.
    await sql`create function strongroom_test_commit_twin() returns trigger language plpgsql as $$
      begin
        insert into matters (organization_id, matter_name, matter_number, client_name, responsible_lawyer)
          values (new.organization_id, 'Twin', new.matter_number, new.client_name, new.responsible_lawyer);
        return new;
      end $$`.execute(t.ctx.db);
    await sql`create trigger strongroom_test_commit_twin before insert on matters
      for each row when (new.matter_name = 'Race probe') execute function strongroom_test_commit_twin()`.execute(t.ctx.db);
    try {
      const generated = await admin.client.post('/_api/matters/create', {
        matterName: 'Race probe',
        clientName: 'Y',
        responsibleAttorney: 'Z',
      });
      expect(generated.statusCode).toBe(409);
      expect(generated.json()).toEqual({ error: MATTER_MSG.concurrentCreation, code: 'CONFLICT_ERROR', details: { reason: 'RACE' } });
      const typed = await admin.client.post('/_api/matters/create', {
        matterName: 'Race probe',
        clientName: 'Y',
        responsibleAttorney: 'Z',
        matterNumber: `MAT-${year}-960`,
      });
      expect(typed.statusCode).toBe(409);
      expect(typed.json()).toEqual({
        error: MATTER_MSG.matterNumberExists,
        code: 'CONFLICT_ERROR',
        details: { reason: 'NUMBER_TAKEN', field: 'matterNumber' },
      });
    } finally {
      await sql`drop trigger strongroom_test_commit_twin on matters`.execute(t.ctx.db);
      await sql`drop function strongroom_test_commit_twin()`.execute(t.ctx.db);
    }
    // Both refusals rolled back whole: neither the probe nor its twin was kept.
    const kept = await t.ctx.db
      .selectFrom('matters')
      .select('id')
      .where('organizationId', '=', admin.organizationId)
      .where('matterName', 'in', ['Race probe', 'Twin'])
      .execute();
    expect(kept).toEqual([]);
  });

  it('validates with the published messages and rejects unknown fields', async () => {
    const v = async (body: object) => {
      const r = await admin.client.post('/_api/matters/create', body);
      expect(r.statusCode).toBe(400);
      return r.json().error;
    };
    const base = { matterName: 'Name', clientName: 'Client', responsibleAttorney: 'Lawyer' };
    expect(await v({ ...base, matterName: '' })).toBe('Matter name is required.');
    expect(await v({ ...base, matterName: '   ' })).toBe('Matter name is required.');
    expect(await v({ clientName: 'C', responsibleAttorney: 'L' })).toBe('Matter name is required.');
    expect(await v({ ...base, clientName: '' })).toBe('Client name is required.');
    expect(await v({ ...base, description: 'x'.repeat(2001) })).toBe('Description cannot exceed 2000 characters.');
    expect(await v({ ...base, matterNumber: '2026-001' })).toBe('Matter number must be in the format MAT-YYYY-NNN.');
    expect(await v({ ...base, responsibleAttorney: '' })).toBe('Responsible attorney is required.');
    expect(await v({ ...base, matterName: 'x'.repeat(256) })).toBe(MATTER_MSG.matterNameTooLong);
    expect(await v({ ...base, extra: 1 })).toBe(MSG.unknownFields(['extra']));
    // 2000 characters exactly is fine.
    expect((await createMatter(admin.client, { description: 'd'.repeat(2000) })).description).toHaveLength(2000);
  });

  it('needs canUpload; guests get Access denied', async () => {
    const noUpload = await addMember(t, admin.organizationId, 'user', { canUpload: false });
    const guest = await addMember(t, admin.organizationId, 'guest', { canUpload: true });
    const body = { matterName: 'N', clientName: 'C', responsibleAttorney: 'L' };
    const r1 = await noUpload.client.post('/_api/matters/create', body);
    expect(r1.statusCode).toBe(403);
    expect(r1.json()).toMatchObject({ error: MSG.permissionDenied, code: 'PERMISSION_ERROR' });
    const r2 = await guest.client.post('/_api/matters/create', body);
    expect(r2.statusCode).toBe(403);
    expect(r2.json().error).toBe(MSG.accessDenied('guest'));
    const user = await addMember(t, admin.organizationId, 'user');
    expect((await createMatter(user.client)).organizationId).toBe(admin.organizationId);
    expect((await user.client.get('/_api/matters/list')).statusCode).toBe(200);
    // A guest lists only the matters shared with them: none here.
    expect((await guest.client.get('/_api/matters/list')).json()).toEqual({ matters: [], totalCount: 0, totalCountCapped: false });
  });
});

describe('numbers after a legacy import of hand-typed numbers', () => {
  const next = async (c: Member['client']) => ok(await c.get('/_api/matters/next-number')).matterNumber as string;
  const importNumbers = async (c: Member['client'], from: number, to: number) => {
    for (let n = from; n <= to; n++) await createMatter(c, { matterNumber: `MAT-${year}-${String(n).padStart(3, '0')}` });
  };

  it('steps past 102 consecutive hand-typed numbers at once, after the counter was already in use', async () => {
    const firm = await newOrganization(t, 'Legacy Import LLP');
    expect((await createMatter(firm.client)).matterNumber).toBe(`MAT-${year}-001`);
    await importNumbers(firm.client, 2, 103);
    expect(await next(firm.client)).toBe(`MAT-${year}-104`);
    const r = await firm.client.post('/_api/matters/create', { matterName: 'After import', clientName: 'C', responsibleAttorney: 'L' });
    expect(r.statusCode).toBe(200);
    expect(r.json().matter.matterNumber).toBe(`MAT-${year}-104`);
    expect((await createMatter(firm.client)).matterNumber).toBe(`MAT-${year}-105`);
    // Concurrent creations after the import each get their own number, none of them a false race.
    const made = await Promise.all(
      Array.from({ length: 8 }, () =>
        firm.client.post('/_api/matters/create', { matterName: 'M', clientName: 'C', responsibleAttorney: 'L' }),
      ),
    );
    expect(made.map((m) => m.statusCode)).toEqual(made.map(() => 200));
    const numbers = made.map((m) => m.json().matter.matterNumber as string);
    expect(new Set(numbers).size).toBe(8);
    for (const n of numbers) expect(Number(n.slice(-3))).toBeGreaterThan(105);
  });

  it('follows 102 hand-typed numbers (MAT-YYYY-001..102) when nothing was generated yet, and shows a free number', async () => {
    const firm = await newOrganization(t, 'Legacy Fresh LLP');
    await importNumbers(firm.client, 1, 102);
    const shown = await next(firm.client);
    expect(shown).toBe(`MAT-${year}-103`);
    // The shown number is free: typing it back is accepted.
    expect((await createMatter(firm.client, { matterNumber: shown })).matterNumber).toBe(shown);
    expect((await createMatter(firm.client)).matterNumber).toBe(`MAT-${year}-104`);
  });

  it('steps past a hand-typed number far ahead of the counter and a renumbered matter', async () => {
    const firm = await newOrganization(t, 'Gaps LLP');
    const first = await createMatter(firm.client);
    await createMatter(firm.client, { matterNumber: `MAT-${year}-500` });
    expect(await next(firm.client)).toBe(`MAT-${year}-501`);
    // Renumbering the generated matter by hand leaves the counter where it is.
    ok(
      await firm.client.post('/_api/matters/update', {
        matterId: first.id,
        expectedVersion: first.version,
        matterNumber: `MAT-${year}-900`,
      }),
    );
    expect((await createMatter(firm.client)).matterNumber).toBe(`MAT-${year}-901`);
  });
});

describe('GET /_api/matters/next-number', () => {
  const next = async (c: Member['client']) => ok(await c.get('/_api/matters/next-number')).matterNumber as string;

  it('shows the number a creation would take now, without taking it, and skips numbers typed by hand', async () => {
    const firm = await newOrganization(t, 'Numbering & Co');
    expect(await next(firm.client)).toBe(`MAT-${year}-001`);
    // Asking again takes nothing.
    expect(await next(firm.client)).toBe(`MAT-${year}-001`);
    expect((await createMatter(firm.client)).matterNumber).toBe(`MAT-${year}-001`);
    expect(await next(firm.client)).toBe(`MAT-${year}-002`);
    await createMatter(firm.client, { matterNumber: `MAT-${year}-002` });
    await createMatter(firm.client, { matterNumber: `MAT-${year}-003` });
    const shown = await next(firm.client);
    expect(shown).toBe(`MAT-${year}-004`);
    expect((await createMatter(firm.client)).matterNumber).toBe(shown);
  });

  it('before the first generated number of the year, follows the highest number typed by hand', async () => {
    const firm = await newOrganization(t, 'Hand Typed LLP');
    await createMatter(firm.client, { matterNumber: `MAT-${year}-041` });
    expect(await next(firm.client)).toBe(`MAT-${year}-042`);
    expect((await createMatter(firm.client)).matterNumber).toBe(`MAT-${year}-042`);
  });

  it('counts per organization, and needs the right to create matters and a session', async () => {
    const firm = await newOrganization(t, 'Tenant Check LLP');
    await createMatter(other.client);
    expect(await next(firm.client)).toBe(`MAT-${year}-001`);
    const guest = await addMember(t, firm.organizationId, 'guest');
    const denied = await guest.client.get('/_api/matters/next-number');
    expect(denied.statusCode).toBe(403);
    const reader = await addMember(t, firm.organizationId, 'user', { canUpload: false });
    expect((await reader.client.get('/_api/matters/next-number')).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/_api/matters/next-number' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /_api/matters/update', () => {
  it('changes fields, bumps the version and audits what changed', async () => {
    const m = await createMatter(admin.client, { description: 'old' });
    const r = ok(
      await admin.client.post('/_api/matters/update', {
        matterId: m.id,
        matterName: 'Renamed',
        description: '',
        responsibleLawyer: 'New Lawyer',
        expectedVersion: 1,
      }),
    );
    expect(r.matter).toMatchObject({ id: m.id, matterName: 'Renamed', description: null, responsibleLawyer: 'New Lawyer', version: 2 });
    const r2 = ok(await admin.client.post('/_api/matters/update', { matterId: m.id, clientName: 'Other Client', expectedVersion: 2 }));
    expect(r2.matter).toMatchObject({ clientName: 'Other Client', matterName: 'Renamed', version: 3 });
    // Nothing changed: same version, no audit entry.
    const same = ok(await admin.client.post('/_api/matters/update', { matterId: m.id, clientName: 'Other Client', expectedVersion: 3 }));
    expect(same.matter.version).toBe(3);
    const entries = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'UPDATE_MATTER' && e.targetId === m.id);
    expect(entries).toHaveLength(2);
    expect(entries[0]!.details).toMatchObject({
      version: 2,
      changes: {
        matterName: { from: m.matterName, to: 'Renamed' },
        description: { from: 'old', to: null },
        responsibleLawyer: { from: 'Jane Counsel', to: 'New Lawyer' },
      },
    });
  });

  it('clears the client and the lawyer when sent as null or empty, audits it, and refuses to remove the number', async () => {
    const m = await createMatter(admin.client, { description: 'keep' });
    expect(m.clientName).not.toBeNull();
    const r = ok(
      await admin.client.post('/_api/matters/update', { matterId: m.id, clientName: null, responsibleLawyer: '', expectedVersion: 1 }),
    );
    expect(r.matter).toMatchObject({
      clientName: null,
      responsibleLawyer: null,
      description: 'keep',
      matterNumber: m.matterNumber,
      version: 2,
    });
    const detail = ok(await admin.client.get(`/_api/matters/detail?matterId=${m.id}`));
    expect(detail.matter).toMatchObject({ clientName: null, responsibleLawyer: null });
    const entries = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'UPDATE_MATTER' && e.targetId === m.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.details).toMatchObject({
      changes: { clientName: { from: m.clientName, to: null }, responsibleLawyer: { from: 'Jane Counsel', to: null } },
    });
    // Clearing what is already empty changes nothing.
    expect(
      ok(await admin.client.post('/_api/matters/update', { matterId: m.id, clientName: null, expectedVersion: 2 })).matter.version,
    ).toBe(2);
    for (const matterNumber of [null, '', '  ']) {
      const refused = await admin.client.post('/_api/matters/update', { matterId: m.id, matterNumber, expectedVersion: 2 });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe(MATTER_MSG.matterNumberNotRemovable);
    }
    expect(ok(await admin.client.get(`/_api/matters/detail?matterId=${m.id}`)).matter).toMatchObject({
      matterNumber: m.matterNumber,
      version: 2,
    });
  });

  it('lets exactly one of two updates with the same expectedVersion through; the other is a 409 version mismatch', async () => {
    const m = await createMatter(admin.client);
    const [a, b] = await Promise.all([
      admin.client.post('/_api/matters/update', { matterId: m.id, matterName: 'First', expectedVersion: 1 }),
      admin.client.post('/_api/matters/update', { matterId: m.id, matterName: 'Second', expectedVersion: 1 }),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const lost = a.statusCode === 409 ? a : b;
    const won = a.statusCode === 200 ? a : b;
    expect(lost.json()).toMatchObject({
      code: 'CONFLICT_ERROR',
      details: { reason: 'VERSION_MISMATCH', currentVersion: 2, updatedBy: 'Ada Admin' },
    });
    expect(lost.json().error.toLowerCase()).toContain('version mismatch');
    expect(lost.json().details.updatedAt).toBe(won.json().matter.updatedAt);
    const detail = ok(await admin.client.get(`/_api/matters/detail?matterId=${m.id}`));
    expect(detail.matter).toMatchObject({ version: 2, matterName: won.json().matter.matterName });
  });

  it('refuses a number another matter has, and accepts its own', async () => {
    const a = await createMatter(admin.client);
    const b = await createMatter(admin.client);
    const r = await admin.client.post('/_api/matters/update', {
      matterId: b.id,
      matterNumber: a.matterNumber.toLowerCase().replace('mat', 'MAT'),
      expectedVersion: 1,
    });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: MATTER_MSG.matterNumberExists, details: { reason: 'NUMBER_TAKEN', field: 'matterNumber' } });
    expect(
      ok(await admin.client.post('/_api/matters/update', { matterId: b.id, matterNumber: b.matterNumber, expectedVersion: 1 })).matter
        .version,
    ).toBe(1);
  });

  it('validates with the published messages', async () => {
    const m = await createMatter(admin.client);
    const v = async (body: object) => {
      const r = await admin.client.post('/_api/matters/update', body);
      expect(r.statusCode).toBe(400);
      return r.json().error;
    };
    expect(await v({ matterId: 'nope', expectedVersion: 1 })).toBe('Invalid Matter ID format.');
    expect(await v({ matterId: m.id, matterName: '', expectedVersion: 1 })).toBe('Matter name cannot be empty.');
    expect(await v({ matterId: m.id, description: 'x'.repeat(2001), expectedVersion: 1 })).toBe(
      'Description cannot exceed 2000 characters.',
    );
    expect(await v({ matterId: m.id, matterNumber: 'M-1', expectedVersion: 1 })).toBe(MATTER_MSG.matterNumberFormat);
    expect(await v({ matterId: m.id, matterName: 'X' })).toBe(MATTER_MSG.expectedVersionRequired);
    expect(await v({ matterId: m.id, expectedVersion: 1, status: 'Vaulted' })).toBe(MSG.unknownFields(['status']));
  });

  it('refuses edits under legal hold and when vaulted', async () => {
    const held = await createMatter(admin.client);
    await setMatterFlags(t, held.id, { legalHold: true });
    const r = await admin.client.post('/_api/matters/update', { matterId: held.id, matterName: 'X', expectedVersion: 1 });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'Actions are disabled due to legal hold', details: { reason: 'LEGAL_HOLD' } });
    const vaulted = await createMatter(admin.client);
    await setMatterFlags(t, vaulted.id, { vaulted: true, legalHold: true });
    const r2 = await admin.client.post('/_api/matters/update', { matterId: vaulted.id, matterName: 'X', expectedVersion: 1 });
    expect(r2.statusCode).toBe(409);
    expect(r2.json()).toMatchObject({ error: 'Actions are disabled for vaulted matters', details: { reason: 'VAULTED' } });
  });

  it('lets admins and canUpload holders edit; others get 403; another organization gets 404', async () => {
    const m = await createMatter(admin.client);
    const user = await addMember(t, admin.organizationId, 'user');
    expect(
      ok(await user.client.post('/_api/matters/update', { matterId: m.id, matterName: 'By user', expectedVersion: 1 })).matter.version,
    ).toBe(2);
    const reader = await addMember(t, admin.organizationId, 'user', { canUpload: false });
    expect((await reader.client.post('/_api/matters/update', { matterId: m.id, matterName: 'No', expectedVersion: 2 })).statusCode).toBe(
      403,
    );
    const guest = await addMember(t, admin.organizationId, 'guest');
    expect((await guest.client.post('/_api/matters/update', { matterId: m.id, matterName: 'No', expectedVersion: 2 })).statusCode).toBe(
      403,
    );
    const foreign = await other.client.post('/_api/matters/update', { matterId: m.id, matterName: 'No', expectedVersion: 2 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Matter not found.');
  });
});

describe('GET /_api/matters/detail', () => {
  it('answers the matter and its nodes as a tree', async () => {
    const m = await createMatter(admin.client, { matterName: 'Tree' });
    const a = await createFolder(admin.client, m.id, 'Alpha');
    const b = await createFolder(admin.client, m.id, 'beta');
    const sub = await createFolder(admin.client, m.id, 'Sub', a.id);
    const r = ok(await admin.client.get(`/_api/matters/detail?matterId=${m.id}`));
    expect(r.matter).toMatchObject({ id: m.id, matterName: 'Tree' });
    expect(r.nodes.map((n: { name: string }) => n.name)).toEqual(['Alpha', 'beta']);
    expect(r.nodes[0]).toMatchObject({
      id: a.id,
      nodeType: 'folder',
      parentId: null,
      path: '/Alpha',
      matterId: m.id,
      organizationId: admin.organizationId,
    });
    expect(r.nodes[0].children).toEqual([expect.objectContaining({ id: sub.id, parentId: a.id, path: '/Alpha/Sub', children: [] })]);
    expect(r.nodes[1]).toMatchObject({ id: b.id, children: [] });
    expect(r.nodes[0].createdBy).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 404 for another organization, and the published messages for bad ids', async () => {
    const m = await createMatter(admin.client);
    const r = await other.client.get(`/_api/matters/detail?matterId=${m.id}`);
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ error: 'Matter not found.', code: 'NOT_FOUND' });
    expect((await admin.client.get(`/_api/matters/detail?matterId=${randomUUID()}`)).statusCode).toBe(404);
    expect((await admin.client.get('/_api/matters/detail?matterId=abc')).json().error).toBe('Invalid Matter ID format.');
    expect((await admin.client.get('/_api/matters/detail')).json().error).toBe(MATTER_MSG.matterIdRequired);
  });

  it('hides vaulted matters from users without canViewVaulted', async () => {
    const m = await createMatter(admin.client);
    await setMatterFlags(t, m.id, { vaulted: true, legalHold: true });
    const blind = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false });
    const r = await blind.client.get(`/_api/matters/detail?matterId=${m.id}`);
    expect(r.statusCode).toBe(403);
    expect(r.json().error).toBe(MATTER_MSG.vaultedHidden);
    expect(ok(await admin.client.get(`/_api/matters/detail?matterId=${m.id}`)).matter).toMatchObject({
      isVaulted: true,
      status: 'Vaulted',
    });
  });
});

describe('GET /_api/matters/list', () => {
  let firm: Member;
  let ids: Record<string, string>;
  beforeAll(async () => {
    firm = await newOrganization(t, 'List & Co');
    const make = async (name: string, client: string, lawyer: string, description?: string) =>
      (
        await createMatter(firm.client, {
          matterName: name,
          clientName: client,
          responsibleAttorney: lawyer,
          ...(description ? { description } : {}),
        })
      ).id;
    ids = {
      alpha: await make('Alpha lease', 'Northwind', 'Jane Counsel', 'Office lease renewal'),
      bravo: await make('bravo merger', 'Contoso', 'Jane Counsel'),
      charlie: await make('Charlie estate', 'northwind', 'Sam Barrister', 'Probate of the 50% share'),
      delta: await make('Delta patent', 'Fabrikam', 'Sam Barrister'),
      echo: await make('Echo arbitration', 'Contoso', 'Lee Solicitor', 'Shipping_claim'),
    };
    await setMatterFlags(t, ids.delta!, { vaulted: true, legalHold: true });
    // Spread creation times over known days.
    const days: Record<string, string> = {
      alpha: '2026-01-10T10:00:00Z',
      bravo: '2026-02-10T10:00:00Z',
      charlie: '2026-03-10T10:00:00Z',
      delta: '2026-03-10T10:00:00Z',
      echo: '2026-04-10T23:30:00Z',
    };
    for (const [k, d] of Object.entries(days))
      await t.ctx.db
        .updateTable('matters')
        .set({ createdAt: new Date(d) })
        .where('id', '=', ids[k]!)
        .execute();
  });

  const list = async (query: string, c = firm.client) =>
    ok(await c.get(`/_api/matters/list${query}`)) as { matters: Array<{ id: string; matterName: string }>; totalCount: number };
  const names = (r: { matters: Array<{ matterName: string }> }) => r.matters.map((m) => m.matterName);

  it("answers matters newest first by default with the total count, only this organization's", async () => {
    const r = await list('');
    expect(r.totalCount).toBe(5);
    const n = names(r);
    expect(n[0]).toBe('Echo arbitration');
    expect(new Set(n.slice(1, 3))).toEqual(new Set(['Charlie estate', 'Delta patent']));
    expect(n.slice(3)).toEqual(['bravo merger', 'Alpha lease']);
    // Delta and Charlie share a timestamp: id decides, in the same direction.
    const tied = r.matters.slice(1, 3).map((m) => m.id);
    expect(tied[0]! > tied[1]!).toBe(true);
  });

  it('searches name, number, client and description as substrings, case-insensitively, with LIKE characters taken literally', async () => {
    expect(names(await list('?search=LEASE'))).toEqual(['Alpha lease']);
    expect(names(await list('?search=north&sortBy=matter_name&sortDirection=asc'))).toEqual(['Alpha lease', 'Charlie estate']);
    expect(names(await list('?search=renewal'))).toEqual(['Alpha lease']);
    expect(names(await list('?search=50%25'))).toEqual(['Charlie estate']);
    // '_' is a character here, not a wildcard ('e_s' would otherwise match 'lease').
    expect(names(await list('?search=e_s'))).toEqual([]);
    expect(names(await list('?search=ng_cl'))).toEqual(['Echo arbitration']);
    const echo = (await list('?search=Echo')).matters[0] as unknown as { matterNumber: string };
    expect(names(await list(`?search=${echo.matterNumber.toLowerCase()}`))).toEqual(['Echo arbitration']);
  });

  it('filters by status, client, lawyer and dates', async () => {
    expect(names(await list('?status=Vaulted'))).toEqual(['Delta patent']);
    expect((await list('?status=Open')).totalCount).toBe(4);
    expect((await list('?status=All')).totalCount).toBe(5);
    expect(names(await list('?clientName=NORTHWIND&sortBy=matter_name&sortDirection=asc'))).toEqual(['Alpha lease', 'Charlie estate']);
    expect(names(await list('?responsibleLawyer=sam%20barrister&sortBy=matter_name&sortDirection=asc'))).toEqual([
      'Charlie estate',
      'Delta patent',
    ]);
    expect(names(await list('?dateFrom=2026-02-10&dateTo=2026-03-10&sortBy=matter_name&sortDirection=asc'))).toEqual([
      'bravo merger',
      'Charlie estate',
      'Delta patent',
    ]);
    // A date-only dateTo includes the whole (UTC) day.
    expect(names(await list('?dateFrom=2026-04-10&dateTo=2026-04-10'))).toEqual(['Echo arbitration']);
    expect(names(await list('?dateTo=2026-01-10T10:00:00.000Z'))).toEqual(['Alpha lease']);
    expect((await list('?search=&status=&clientName=')).totalCount).toBe(5);
  });

  it('sorts by each field both ways with id as the tiebreaker', async () => {
    expect(names(await list('?sortBy=matter_name&sortDirection=asc'))).toEqual([
      'Alpha lease',
      'bravo merger',
      'Charlie estate',
      'Delta patent',
      'Echo arbitration',
    ]);
    expect(names(await list('?sortBy=matter_name&sortDirection=desc'))).toEqual([
      'Echo arbitration',
      'Delta patent',
      'Charlie estate',
      'bravo merger',
      'Alpha lease',
    ]);
    const byClient = (await list('?sortBy=client_name&sortDirection=asc')).matters as unknown as Array<{ clientName: string; id: string }>;
    expect(byClient.map((m) => m.clientName.toLowerCase())).toEqual(['contoso', 'contoso', 'fabrikam', 'northwind', 'northwind']);
    expect(byClient[0]!.id < byClient[1]!.id).toBe(true);
    const vaultedFirst = await list('?sortBy=is_vaulted&sortDirection=desc');
    expect(vaultedFirst.matters[0]!.matterName).toBe('Delta patent');
    expect(names(await list('?sortBy=created_at&sortDirection=asc'))[0]).toBe('Alpha lease');
  });

  it('pages with a stable order and the full total', async () => {
    const all = names(await list('?sortBy=matter_name&sortDirection=asc&pageSize=100'));
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(...names(await list(`?sortBy=matter_name&sortDirection=asc&pageSize=2&page=${page}`)));
    expect(pages).toEqual(all);
    const p3 = await list('?sortBy=matter_name&pageSize=2&page=3');
    expect(p3.matters).toHaveLength(1);
    expect(p3.totalCount).toBe(5);
    expect((await list('?page=9')).matters).toEqual([]);
  });

  it('validates the query', async () => {
    const v = async (q: string) => {
      const r = await firm.client.get(`/_api/matters/list${q}`);
      expect(r.statusCode).toBe(400);
      return r.json().error;
    };
    expect(await v('?pageSize=101')).toBe(MATTER_MSG.pageSizeMax);
    expect(await v('?page=0')).toBe(MATTER_MSG.pagePositive);
    expect(await v('?sortBy=name')).toBe(MATTER_MSG.invalidSortBy);
    expect(await v('?sortDirection=up')).toBe(MATTER_MSG.invalidSortDirection);
    expect(await v('?status=Closed')).toBe(MATTER_MSG.invalidStatus);
    expect(await v('?dateFrom=yesterday')).toBe(MATTER_MSG.invalidDate);
  });

  it('leaves vaulted matters out for users without canViewVaulted', async () => {
    const blind = await addMember(t, firm.organizationId, 'user', { canViewVaulted: false });
    const r = await list('', blind.client);
    expect(r.totalCount).toBe(4);
    expect(names(r)).not.toContain('Delta patent');
  });

  it("never shows another organization's matters", async () => {
    const r = await list('?pageSize=100', other.client);
    expect(r.matters.map((m) => m.id)).not.toEqual(expect.arrayContaining([ids.alpha]));
    expect(r.matters.every((m) => !Object.values(ids).includes(m.id))).toBe(true);
    expect(names(await list('?search=Northwind', other.client))).toEqual([]);
  });
});

describe('client and lawyer suggestions', () => {
  let firm: Member;
  beforeAll(async () => {
    firm = await newOrganization(t, 'Suggest LLP');
    const rows: Array<[string, string]> = [
      ['Acme Corp', 'Jane Counsel'],
      ['acme corp', 'Jane Counsel'],
      ['Acme Corp', 'Jane Counsel'],
      ['Beta Acme', 'Sam Barrister'],
      ['Gamma', 'Sam Barrister'],
    ];
    for (const [client, lawyer] of rows) await createMatter(firm.client, { clientName: client, responsibleAttorney: lawyer });
  });

  it('answers names with counts and the Frequent mark from 3 matters, prefix matches first', async () => {
    const r = ok(await firm.client.get('/_api/matters/clients/suggestions?query=acme'));
    expect(r).toEqual([
      { clientName: expect.stringMatching(/^acme corp$/i), matterCount: 3, isFrequentClient: true },
      { clientName: 'Beta Acme', matterCount: 1, isFrequentClient: false },
    ]);
    const all = ok(await firm.client.get('/_api/matters/clients/suggestions'));
    expect(all.map((s: { clientName: string }) => s.clientName.toLowerCase())).toEqual(['acme corp', 'beta acme', 'gamma']);
    expect(ok(await firm.client.get('/_api/matters/clients/suggestions?limit=1'))).toHaveLength(1);
    const lawyers = ok(await firm.client.get('/_api/matters/lawyers/suggestions?query=sa'));
    expect(lawyers).toEqual([{ lawyerName: 'Sam Barrister', matterCount: 2, isFrequentLawyer: false }]);
    expect(ok(await firm.client.get('/_api/matters/lawyers/suggestions'))[0]).toEqual({
      lawyerName: 'Jane Counsel',
      matterCount: 3,
      isFrequentLawyer: true,
    });
  });

  it('refuses a one-character query with 400 and a clear message, and still answers an empty or absent one', async () => {
    for (const path of ['/_api/matters/clients/suggestions', '/_api/matters/lawyers/suggestions']) {
      for (const query of ['a', '%20J%20', 'A&limit=5']) {
        const r = await firm.client.get(`${path}?query=${query}`);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toMatchObject({ error: 'Search query must be at least 2 characters.', code: 'VALIDATION_ERROR' });
      }
      // No query, an empty one and a blank one all list the most used names.
      for (const suffix of ['', '?query=', '?query=%20%20', '?limit=2']) {
        const r = ok(await firm.client.get(`${path}${suffix}`));
        expect(r.length).toBeGreaterThan(0);
      }
      // Two characters are enough.
      expect(ok(await firm.client.get(`${path}?query=ac`)).length + ok(await firm.client.get(`${path}?query=ja`)).length).toBeGreaterThan(
        0,
      );
    }
  });

  it('validates the limit, keeps organizations apart and gives guests only the names of matters shared with them', async () => {
    const r = await firm.client.get('/_api/matters/clients/suggestions?limit=51');
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe(MATTER_MSG.suggestionLimitMax);
    expect(ok(await other.client.get('/_api/matters/clients/suggestions?query=gamma'))).toEqual([]);
    const guest = await addMember(t, firm.organizationId, 'guest');
    expect(ok(await guest.client.get('/_api/matters/lawyers/suggestions'))).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents the matter, node and upload calls, the node tree included', async () => {
    const doc = (await t.app.inject('/_api/openapi.json')).json();
    for (const path of [
      '/_api/matters/list',
      '/_api/matters/detail',
      '/_api/nodes/move',
      '/_api/nodes/download-url',
      '/_api/upload/presigned',
      '/_api/upload/parts',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(JSON.stringify(doc.paths['/_api/matters/detail'])).toContain('#/components/schemas/NodeTree');
    expect(doc.components.schemas.NodeTree.properties.children.items).toEqual({ $ref: '#/components/schemas/NodeTree' });
  });
});
