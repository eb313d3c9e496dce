import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/platform/db/database.js';
import { testDatabase } from './helpers.js';
import { createOrganizationFromCli } from '../src/features/setup/setup.service.js';
import { auditFor, SYSTEM_CHAIN, verifyChain } from '../src/shared/audit.js';

let database: DatabaseHandle;
let org: string;
let userId: number;
beforeAll(async () => {
  database = await testDatabase();
  ({ organizationId: org, userId } = await createOrganizationFromCli(database.db, {
    name: 'Audit LLP',
    adminName: 'Ada Admin',
    adminEmail: 'ada@firm.test',
    adminPassword: 'correct horse battery',
  }));
});
afterAll(() => database.close());

const rowsOf = (chainKey: string) =>
  database.db.selectFrom('auditLogs').selectAll().where('chainKey', '=', chainKey).orderBy('seq').execute();

describe('auditFor: the audit append bound to who acts and from where', () => {
  it("records a person's entries in their organization's chain with their name and address", async () => {
    const audit = auditFor({ id: userId, fullName: 'Ada Admin', email: 'ada@firm.test', organizationId: org }, { ip: '203.0.113.9' });
    await database.db.transaction().execute(async (trx) => {
      await audit(trx, 'FIRST', { table: 'users', id: userId }, { step: 1 });
      await audit(trx, 'SECOND', null);
    });
    // Setting up the organization wrote entries of its own first.
    const rows = (await rowsOf(org)).slice(-2);
    expect(rows.map((r) => [r.action, r.actorId, r.actorName, r.actorEmail, r.ipAddress, r.targetTable, r.targetId, r.details])).toEqual([
      ['FIRST', userId, 'Ada Admin', 'ada@firm.test', '203.0.113.9', 'users', String(userId), { step: 1 }],
      ['SECOND', userId, 'Ada Admin', 'ada@firm.test', '203.0.113.9', null, null, {}],
    ]);
    expect(await verifyChain(database.db, org)).toMatchObject({ ok: true });
  });

  it('sends an unknown person to the system chain, and records a background job with no actor and no address', async () => {
    await database.db
      .transaction()
      .execute((trx) => auditFor(null, { ip: '198.51.100.1' })(trx, 'UNKNOWN_ADDRESS', { table: 'users', id: null }));
    await database.db
      .transaction()
      .execute((trx) => auditFor({ organizationId: org, actor: null })(trx, 'JOB_RAN', { table: 'upload_sessions', id: 'u1' }));
    const system = await rowsOf(SYSTEM_CHAIN);
    expect(system.map((r) => [r.action, r.organizationId, r.actorId, r.ipAddress, r.targetTable, r.targetId])).toEqual([
      ['UNKNOWN_ADDRESS', null, null, '198.51.100.1', 'users', null],
    ]);
    const job = (await rowsOf(org)).at(-1)!;
    expect([job.action, job.actorId, job.actorName, job.ipAddress, job.targetId]).toEqual(['JOB_RAN', null, null, null, 'u1']);
  });
});
