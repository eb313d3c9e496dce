/**
 * The audit log as its readers see it: GET /_api/audit-logs/list (filters, order, pages, who sees what) and
 * GET /_api/audit-logs/export (the CSV, its system MFA, its own audit entry), and that every action Strongroom
 * writes belongs to one of the page's seven categories.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_CATEGORIES,
  AUDIT_ACTIONS,
  AUDIT_CSV_COLUMNS,
  AUDIT_LOG_MSG,
  SECURITY_EVENT_ACTIONS,
  type AuditLogEntry,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  createMatter,
  newOrganization,
  newOrganizationWithTotp,
  ok,
  systemMfaToken,
  type Member,
  type TotpMember,
} from '../../../test/factories.js';
import { csvCell } from './audit-csv.js';
import { EXPORT_BATCH } from './audit.service.js';

let t: TestApp;
let admin: TotpMember;
let user: Member;
let guest: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Acme LLP');
  user = await addMember(t, admin.organizationId, 'user', {}, 'Uma User');
  guest = await addMember(t, admin.organizationId, 'guest', {}, 'Gus Guest');
  other = await newOrganization(t, 'Other & Partners');
  await createMatter(admin.client, { matterName: 'Admin matter' });
  await createMatter(user.client, { matterName: 'User matter' });
  await createMatter(other.client, { matterName: 'Elsewhere matter' });
});
afterAll(() => t.shutdown());

const list = (m: Member, q = '') => m.client.get(`/_api/audit-logs/list${q ? `?${q}` : ''}`);
const logsOf = async (m: Member, q = ''): Promise<AuditLogEntry[]> => ok(await list(m, q)).logs;

/** A minimal RFC 4180 reader: quoted fields with doubled quotes and line breaks inside. */
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
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

let exportToken: string | undefined;
/** A system MFA token for exports (one code buys it; it lasts 30 minutes). */
const freshCode = async () => (exportToken ??= await systemMfaToken(admin, 'EXPORT_AUDIT_LOGS'));

describe('GET /_api/audit-logs/list', () => {
  it('answers the organization newest first with actor, target, details, pagination and totalCount', async () => {
    const res = ok(await list(admin, 'limit=5'));
    expect(res.logs).toHaveLength(5);
    const times = res.logs.map((l: AuditLogEntry) => l.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(res.pagination).toMatchObject({ page: 1, limit: 5, totalCountCapped: false });
    expect(res.totalCount).toBe(res.pagination.totalCount);
    expect(res.pagination.totalPages).toBe(Math.ceil(res.totalCount / 5));
    const created = (await logsOf(admin, 'actions=CREATE_MATTER')).find((l) => l.details?.matterName === 'Admin matter')!;
    expect(created).toMatchObject({ actor: { id: admin.userId, email: admin.email }, targetTable: 'matters', archived: false });
    expect(created.ipAddress).toBeTruthy();
    // Every entry is the caller's organization's.
    const all = await logsOf(admin, 'limit=100');
    expect(all.some((l) => l.details?.matterName === 'Elsewhere matter')).toBe(false);
  });

  it('filters by actions (repeated, with or without brackets), actor, date range, address and search', async () => {
    const both = await logsOf(admin, 'actions[]=CREATE_MATTER&actions[]=LOGIN_PASSWORD_VERIFIED');
    expect(new Set(both.map((l) => l.action))).toEqual(new Set(['CREATE_MATTER', 'LOGIN_PASSWORD_VERIFIED']));
    const plain = await logsOf(admin, 'actions=CREATE_MATTER&actions=LOGIN_PASSWORD_VERIFIED');
    expect(plain.map((l) => l.id)).toEqual(both.map((l) => l.id));
    const byUser = await logsOf(admin, `actorIds[]=${user.userId}`);
    expect(byUser.length).toBeGreaterThan(0);
    expect(byUser.every((l) => l.actor?.id === user.userId)).toBe(true);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect(await logsOf(admin, `startDate=${encodeURIComponent(future)}`)).toEqual([]);
    const past = await logsOf(
      admin,
      `startDate=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&endDate=${encodeURIComponent(future)}`,
    );
    expect(past.length).toBeGreaterThan(0);
    expect(await logsOf(admin, 'ipAddress=10.9.9.9')).toEqual([]);
    const found = await logsOf(admin, 'search=admin%20MATTER');
    expect(found.map((l) => l.details?.matterName)).toEqual(['Admin matter']);
    // The search's LIKE characters are taken literally.
    expect(await logsOf(admin, 'search=%25%25')).toEqual([]);
  });

  it('sorts by action and by target table in either direction, and pages without overlap', async () => {
    const asc = await logsOf(admin, 'sortBy=action&sortDirection=asc&limit=100');
    expect(asc.map((l) => l.action)).toEqual([...asc.map((l) => l.action)].sort());
    const desc = await logsOf(admin, 'sortBy=action&sortDirection=desc&limit=100');
    expect(desc.map((l) => l.id)).toEqual([...asc].reverse().map((l) => l.id));
    const byTable = await logsOf(admin, 'sortBy=target_table&sortDirection=asc&limit=100');
    const tables = byTable.map((l) => l.targetTable ?? '');
    expect(tables).toEqual([...tables].sort());
    const p1 = ok(await list(admin, 'limit=2&page=1'));
    const p2 = ok(await list(admin, 'limit=2&page=2'));
    expect(p1.logs.map((l: AuditLogEntry) => l.id)).not.toContain(p2.logs[0].id);
    expect(p2.pagination.page).toBe(2);
  });

  it('answers each invalid query with its message', async () => {
    const cases: Array<[string, string]> = [
      ['page=0', AUDIT_LOG_MSG.pagePositive],
      ['page=x', AUDIT_LOG_MSG.pagePositive],
      ['limit=101', AUDIT_LOG_MSG.limitRange],
      ['limit=0', AUDIT_LOG_MSG.limitRange],
      ['limit=1.5', AUDIT_LOG_MSG.limitRange],
      ['startDate=yesterday', AUDIT_LOG_MSG.invalidStartDate],
      ['endDate=2026-13-01', AUDIT_LOG_MSG.invalidEndDate],
      ['startDate=2026-02-01T00:00:00Z&endDate=2026-01-01T00:00:00Z', AUDIT_LOG_MSG.dateOrder],
      ['actions[]=DROP_TABLES', AUDIT_LOG_MSG.invalidAction],
      ['actions=CREATE_MATTER&actions=nope', AUDIT_LOG_MSG.invalidAction],
      ['actorIds[]=abc', AUDIT_LOG_MSG.invalidActorId],
      ['actorIds=-1', AUDIT_LOG_MSG.invalidActorId],
      [`actions=${Array.from({ length: 101 }, () => 'CREATE_MATTER').join('&actions=')}`, AUDIT_LOG_MSG.tooManyValues],
      ['ipAddress=1.2.3.4%20or%201%3D1', AUDIT_LOG_MSG.invalidIpAddress],
      [`search=${'x'.repeat(201)}`, AUDIT_LOG_MSG.searchTooLong],
      ['sortBy=hash', AUDIT_LOG_MSG.invalidSortBy],
      ['sortDirection=up', AUDIT_LOG_MSG.invalidSortDirection],
    ];
    for (const [q, message] of cases) {
      const res = await list(admin, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
    }
  });

  it('shows a user their own entries plus matters created, people invited and organization changes; guests none', async () => {
    const seen = await logsOf(user, 'limit=100');
    expect(seen.length).toBeGreaterThan(0);
    for (const l of seen)
      expect(l.actor?.id === user.userId || ['CREATE_MATTER', 'INVITE_USER', 'UPDATE_ORG_INFO'].includes(l.action), l.action).toBe(true);
    expect(seen.some((l) => l.details?.matterName === 'Admin matter')).toBe(true);
    expect(seen.some((l) => l.action === 'LOGIN_PASSWORD_VERIFIED' && l.actor?.id === admin.userId)).toBe(false);
    // A filter on someone else's sign-ins finds nothing for the user, though the entries exist.
    expect(await logsOf(user, `actorIds=${admin.userId}&actions=LOGIN_PASSWORD_VERIFIED`)).toEqual([]);
    const g = await list(guest);
    expect(g.statusCode).toBe(403);
    expect(g.json().error).toBe(AUDIT_LOG_MSG.guestsNotAllowed);
    expect((await t.app.inject({ method: 'GET', url: '/_api/audit-logs/list' })).statusCode).toBe(401);
  });

  it('shows archived entries with their chain position kept and no details', async () => {
    const target = (await logsOf(admin, 'actions=CREATE_MATTER')).find((l) => l.details?.matterName === 'Admin matter')!;
    await t.ctx.db.updateTable('auditLogs').set({ archived: true, details: '{}' }).where('id', '=', target.id).execute();
    try {
      const again = (await logsOf(admin, 'actions=CREATE_MATTER')).find((l) => l.id === target.id)!;
      expect(again).toMatchObject({ archived: true, details: null, action: 'CREATE_MATTER' });
    } finally {
      await t.ctx.db
        .updateTable('auditLogs')
        .set({ archived: false, details: JSON.stringify(target.details) })
        .where('id', '=', target.id)
        .execute();
    }
  });
});

describe('GET /_api/audit-logs/export', () => {
  it('asks for system MFA first, and refuses a wrong code', async () => {
    const res = await admin.client.get('/_api/audit-logs/export');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'MFA_REQUIRED', mfaRequired: true });
    const wrong = await admin.client.get('/_api/audit-logs/export', { 'x-mfa-token': '000000' });
    expect(wrong.statusCode).toBe(401);
    expect((await guest.client.get('/_api/audit-logs/export')).statusCode).toBe(403);
    const bad = await admin.client.get('/_api/audit-logs/export?limit=0');
    expect(bad.json()).toMatchObject({ error: AUDIT_LOG_MSG.exportLimitPositive });
  });

  it('streams RFC 4180 CSV with formula cells neutralised and names in any script, and audits the export', async () => {
    const token = await freshCode();
    const tricky = {
      organizationId: admin.organizationId,
      actor: { id: admin.userId, name: '=HYPERLINK("x"), Zoë Ødegård 山田', email: admin.email },
    };
    await t.ctx.db.transaction().execute(async (trx) => {
      await auditFor(tricky, { ip: '203.0.113.9' })(
        trx,
        'UPDATE_MATTER',
        { table: 'matters', id: '+SUM(A1)' },
        { note: 'line one\nline "two", three' },
      );
      await auditFor({ organizationId: admin.organizationId, actor: null })(
        trx,
        'RETENTION_CLEANUP',
        { table: '@cmd', id: '-1' },
        { tab: '\tx' },
      );
    });
    const res = await admin.client.get('/_api/audit-logs/export?sortBy=created_at&sortDirection=desc', { 'x-mfa-token': token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="strongroom_audit_logs_\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\.csv"$/,
    );
    const body = res.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(body.slice(1));
    expect(rows[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    const [cleanup, update] = rows.slice(1, 3);
    expect(cleanup).toEqual([expect.any(String), 'System', 'RETENTION_CLEANUP', "'@cmd:-1", '{"tab":"\\tx"}', '', 'false']);
    expect(update![1]).toBe(`'=HYPERLINK("x"), Zoë Ødegård 山田 <${admin.email}>`);
    expect(update![3]).toBe('matters:+SUM(A1)');
    expect(JSON.parse(update![4]!)).toEqual({ note: 'line one\nline "two", three' });
    expect(update![5]).toBe('203.0.113.9');
    // The raw text has the quotes doubled and the line break inside a quoted field.
    expect(body).toContain('"\'=HYPERLINK(""x""), Zoë');
    const entries = await t.ctx.db
      .selectFrom('auditLogs')
      .selectAll()
      .where('organizationId', '=', admin.organizationId)
      .where('action', '=', 'EXPORT_AUDIT_LOGS')
      .execute();
    expect(entries.at(-1)!.details).toMatchObject({ rowCount: rows.length - 1, filters: { sortBy: 'created_at', sortDirection: 'desc' } });
    // The export left out its own entry (written before it streamed).
    expect(rows.some((r) => r[2] === 'EXPORT_AUDIT_LOGS')).toBe(false);
  });

  it('takes the list filters and limit, and the token from the mfaToken parameter', async () => {
    const res = await admin.client.get(`/_api/audit-logs/export?actions[]=CREATE_MATTER&limit=1&mfaToken=${await freshCode()}`);
    const rows = parseCsv(res.rawPayload.toString('utf8').slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[1]![2]).toBe('CREATE_MATTER');
  });

  it('streams more rows than one batch holds, in order, without repeating or skipping', async () => {
    const big = await newOrganizationWithTotp(t, 'Bulk & Co');
    const n = EXPORT_BATCH * 2 + 7;
    await sql`insert into audit_logs (organization_id, chain_key, seq, action, details, created_at, prev_hash, hash)
      select ${big.organizationId}::uuid, 'bulk-' || ${big.organizationId}, g, 'UPLOAD_FILE', jsonb_build_object('n', g),
             timestamptz '2026-01-01' + (g / 3) * interval '1 second', '', ''
      from generate_series(1, ${n}) g`.execute(t.ctx.db);
    const token = await systemMfaToken(big, 'EXPORT_AUDIT_LOGS');
    const res = await big.client.get('/_api/audit-logs/export?actions=UPLOAD_FILE&sortBy=created_at&sortDirection=asc', {
      'x-mfa-token': token,
    });
    const rows = parseCsv(res.rawPayload.toString('utf8').slice(1)).slice(1);
    expect(rows.map((r) => JSON.parse(r[4]!).n)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const byAction = await big.client.get('/_api/audit-logs/export?actions=UPLOAD_FILE&sortBy=action&sortDirection=desc', {
      'x-mfa-token': token,
    });
    const got = parseCsv(byAction.rawPayload.toString('utf8').slice(1)).slice(1);
    expect(new Set(got.map((r) => JSON.parse(r[4]!).n)).size).toBe(n);
  });
});

describe('CSV cells', () => {
  it('neutralises formula starts and quotes what needs quoting', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('Zoë 山田')).toBe('Zoë 山田');
  });
});

describe('action categories', () => {
  /** The actions the server writes: the literal action of every audit append in its source. */
  function writtenActions(): Set<string> {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const found = new Set<string>();
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) {
          const src = fs.readFileSync(p, 'utf8');
          for (const m of src.matchAll(/\(\s*trx\s*,\s*([^,]+?),\s*(?:\{|null|target|on\b)/g)) {
            for (const a of m[1]!.matchAll(/'([A-Z][A-Z0-9_]+)'/g)) found.add(a[1]!);
          }
        }
      }
    };
    walk(root);
    found.delete('ACTION');
    return found;
  }

  it('puts every action Strongroom writes in exactly one of the seven categories', () => {
    expect(Object.keys(AUDIT_ACTION_CATEGORIES)).toHaveLength(7);
    const written = writtenActions();
    expect(written.size).toBeGreaterThan(40);
    for (const a of [...written, ...SECURITY_EVENT_ACTIONS]) expect(AUDIT_ACTIONS, a).toContain(a);
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
  });
});
