import fs from 'node:fs';
import { CamelCasePlugin, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../src/platform/db/schema.js';
import { testDatabase } from './helpers.js';
import { NOT_DISTRIBUTED, TenantScopeRecorder, unexcused, unscopedTables } from './tenant-scope.js';

const ORG = '00000000-0000-4000-8000-00000000000a';
const TENANT = new Set(['matters', 'nodes', 'node_versions', 'audit_logs']);

/** A Kysely that compiles and "runs" against no database, with the recorder watching. */
function offline() {
  const recorder = new TenantScopeRecorder(TENANT);
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins: [new CamelCasePlugin({ maintainNestedObjectKeys: true }), recorder],
  });
  return { db, recorder };
}

/** The unscoped tables of a query built by `build`, as the recorder's analysis finds them. */
function check(build: (db: Kysely<DB>) => { toOperationNode(): unknown }): string[] {
  const { db } = offline();
  const withCamel = db.withoutPlugins().withPlugin(new CamelCasePlugin({ maintainNestedObjectKeys: true }));
  const node = build(withCamel).toOperationNode() as Parameters<typeof unscopedTables>[0];
  // The camel-case plugin runs when the query executes; compile through it so names are snake_case here too.
  const compiled = new CamelCasePlugin({ maintainNestedObjectKeys: true }).transformQuery({
    node: node as never,
    queryId: { queryId: 'q' },
  });
  return unscopedTables(compiled as never, TENANT);
}

describe('the tenant-scope check', () => {
  it('passes a query that names the organization and flags one that finds rows by id alone', () => {
    expect(check((db) => db.selectFrom('nodes').select('id').where('organizationId', '=', ORG).where('id', '=', 'x'))).toEqual([]);
    expect(check((db) => db.selectFrom('nodes').select('id').where('id', '=', 'x'))).toEqual(['nodes']);
    expect(check((db) => db.updateTable('matters').set({ matterName: 'x' }).where('id', '=', 'x'))).toEqual(['matters']);
    expect(check((db) => db.deleteFrom('nodeVersions').where('nodeId', '=', 'x'))).toEqual(['node_versions']);
  });

  it('flags a join of two organizations’ tables that does not join on the organization', () => {
    const loose = check((db) =>
      db
        .selectFrom('nodes')
        .innerJoin('nodeVersions', 'nodeVersions.nodeId', 'nodes.id')
        .select('nodes.id')
        .where('nodes.organizationId', '=', ORG),
    );
    expect(loose).toEqual(['node_versions (joined without organization_id)']);
    const tight = check((db) =>
      db
        .selectFrom('nodes')
        .innerJoin('nodeVersions', (j) =>
          j.onRef('nodeVersions.nodeId', '=', 'nodes.id').onRef('nodeVersions.organizationId', '=', 'nodes.organizationId'),
        )
        .select('nodes.id')
        .where('nodes.organizationId', '=', ORG),
    );
    expect(tight).toEqual([]);
  });

  it('looks inside subqueries and checks an insert’s columns', () => {
    const sub = check((db) =>
      db
        .selectFrom('matters')
        .select('id')
        .where('organizationId', '=', ORG)
        .where('id', 'in', db.selectFrom('nodes').select('matterId').where('name', '=', 'a')),
    );
    expect(sub).toEqual(['nodes']);
    expect(check((db) => db.insertInto('auditLogs').values({ action: 'X' } as never))).toEqual(['audit_logs']);
    expect(check((db) => db.insertInto('auditLogs').values({ action: 'X', organizationId: ORG } as never))).toEqual([]);
  });

  it('records the product function that sent an unscoped query, and lets a listed exception through', async () => {
    const { db, recorder } = offline();
    await db.selectFrom('nodes').selectAll().where('id', '=', 'x').execute();
    // Sent from this test file: tests may read what they like, so nothing is recorded.
    expect(recorder.violations).toEqual([]);
    expect(unexcused([{ tables: ['nodes'], caller: 'features/nodes/x.repository.ts:findIt', sql: 'SelectQueryNode' }])).toEqual([
      'features/nodes/x.repository.ts:findIt (SelectQueryNode): nodes',
    ]);
    expect(
      unexcused([{ tables: ['undo_entries'], caller: 'features/undo/undo.repository.ts:sweepExpiredEntries', sql: 'DeleteQueryNode' }]),
    ).toEqual([]);
  });

  it('classifies every table that holds an organization id, and the operations guide lists the distributed ones', async () => {
    const h = await testDatabase();
    try {
      const { rows } = await h.pool.query<{ t: string }>(
        "select table_name as t from information_schema.columns where table_schema = 'public' and column_name = 'organization_id' order by 1",
      );
      const guide = fs.readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
      const section = guide.slice(guide.indexOf('## Sharding by organization'));
      const distributed = section.slice(section.indexOf('**Distributed by'), section.indexOf('**Reference tables'));
      const missing = rows.map((r) => r.t).filter((t) => !NOT_DISTRIBUTED.has(t) && !distributed.includes(`\`${t}\``));
      expect(missing).toEqual([]);
      for (const t of NOT_DISTRIBUTED) expect(distributed).not.toContain(`\`${t}\``);
    } finally {
      await h.close();
    }
  });
});
