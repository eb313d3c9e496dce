import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helpers.js';
import type { DatabaseHandle } from './database.js';
import { precompiled } from './precompiled.js';

let h: DatabaseHandle;
beforeAll(async () => {
  h = await testDatabase();
});
afterAll(() => h.close());

// Organizations are a plain table with a name and a timestamp: enough to see each call's own values arrive.
const orgsNamed = precompiled({ name: 'string', after: 'date' }, (db, v) =>
  db
    .selectFrom('organizations')
    .select(['name', 'createdAt'])
    .where('name', '=', v.name)
    .where('createdAt', '>', v.after)
    .where('mfaRequired', '=', false),
);

describe('a query compiled once', () => {
  it('runs each call with its own values, constants kept, on the database and inside a transaction', async () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    await sql`insert into organizations (name, mfa_required, created_at, updated_at)
              values ('Alpha LLP', false, ${t0}, ${t0}), ('Beta LLP', false, ${t0}, ${t0}), ('Gamma LLP', true, ${t0}, ${t0})`.execute(
      h.db,
    );
    expect(await orgsNamed(h.db, { name: 'Alpha LLP', after: new Date('2025-12-31T00:00:00Z') })).toEqual([
      { name: 'Alpha LLP', createdAt: t0 },
    ]);
    expect(await orgsNamed(h.db, { name: 'Beta LLP', after: new Date('2025-12-31T00:00:00Z') })).toEqual([
      { name: 'Beta LLP', createdAt: t0 },
    ]);
    // The date is a value too: after the creation time nothing matches.
    expect(await orgsNamed(h.db, { name: 'Beta LLP', after: new Date('2026-01-02T00:00:00Z') })).toEqual([]);
    // The constant stays: an organization that asks for the second factor never matches.
    expect(await orgsNamed(h.db, { name: 'Gamma LLP', after: new Date('2025-12-31T00:00:00Z') })).toEqual([]);
    const inTrx = await h.db.transaction().execute((trx) => orgsNamed(trx, { name: 'Alpha LLP', after: new Date(0) }));
    expect(inTrx.map((r) => r.name)).toEqual(['Alpha LLP']);
  });

  it('refuses a build that writes a value into the SQL instead of binding it', async () => {
    const inlined = precompiled({ name: 'string' }, (db, v) =>
      db
        .selectFrom('organizations')
        .select('name')
        .where(sql<boolean>`name = ${sql.lit(v.name)}`),
    );
    await expect(inlined(h.db, { name: 'Alpha LLP' })).rejects.toThrow("the value 'name' did not become a bound parameter");
  });
});
