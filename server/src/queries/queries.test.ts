/**
 * Reviewable SQL: the hot queries, compiled from the repository functions that run them, are held to the
 * snapshot files beside this test (<name>.sql). A change to one of these queries fails here until its snapshot
 * is rewritten, so the SQL itself shows up in review (and its plan can be checked with EXPLAIN).
 *
 * After reviewing a change, rewrite the snapshots with:
 *   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@strongroom/contracts';
import type { DatabaseHandle } from '../platform/db/database.js';
import {
  countMattersQuery,
  listMattersQuery,
  nameSuggestionsQuery,
  nextMatterCounterQuery,
  type MatterFilters,
} from '../features/matters/matters.repository.js';
import { binSubtreeQuery } from '../features/nodes/bin.repository.js';
import { pathNamesQuery, selfOrDescendantQuery } from '../features/nodes/nodes.repository.js';
import { liveSessionQuery } from '../features/sessions/sessions.repository.js';
import { testDatabase } from '../../test/helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const update = process.env.UPDATE_SQL_SNAPSHOTS === '1';

const ORG = '00000000-0000-4000-8000-00000000000a';
const NODE = '00000000-0000-4000-8000-00000000000b';
const OTHER_NODE = '00000000-0000-4000-8000-00000000000c';
const NOW = new Date('2026-03-01T12:00:00.000Z');

/** What the matters list sends when someone searches: vaulted matters hidden, newest filters applied. */
const searchFilters: MatterFilters = {
  organizationId: ORG,
  includeVaulted: false,
  search: '10%_off',
  status: 'Open',
  clientName: 'Client Co',
  responsibleLawyer: 'Jane Counsel',
  createdFrom: new Date('2026-01-01T00:00:00.000Z'),
  createdBefore: new Date('2026-02-01T00:00:00.000Z'),
};

/** A snapshot file's text: how to regenerate it, the SQL, and the parameters of the sample call. */
function snapshotText(name: string, source: string, compiled: CompiledQuery): string {
  const sqlText = compiled.sql
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
  return [
    `-- ${name}: compiled from ${source} (server/src/queries/queries.test.ts).`,
    '-- Review a change to this file like code; after review, regenerate every snapshot with:',
    '--   UPDATE_SQL_SNAPSHOTS=1 npx vitest run --project server-pglite queries',
    sqlText + ';',
    `-- parameters: ${JSON.stringify(compiled.parameters)}`,
    '',
  ].join('\n');
}

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await testDatabase();
});
afterAll(() => handle.close());

type Case = { name: string; source: string; compile: () => CompiledQuery };

const cases: Case[] = [
  {
    name: 'matters-list',
    source: 'listMattersQuery (matters.repository.ts)',
    compile: () =>
      listMattersQuery(handle.db, searchFilters, { sortBy: 'matter_name', direction: 'asc' }, { limit: 25, offset: 50 }).compile(),
  },
  {
    name: 'matters-count',
    source: 'countMattersQuery (matters.repository.ts)',
    compile: () => countMattersQuery(handle.db, searchFilters, LIMITS.listCountBound).compile(),
  },
  {
    name: 'client-suggestions',
    source: "nameSuggestionsQuery(db, 'clientName', ...) (matters.repository.ts)",
    compile: () =>
      nameSuggestionsQuery(handle.db, 'clientName', { organizationId: ORG, includeVaulted: false, query: 'Acme', limit: 10 }).compile(),
  },
  {
    name: 'lawyer-suggestions',
    source: "nameSuggestionsQuery(db, 'responsibleLawyer', ...) (matters.repository.ts)",
    compile: () =>
      nameSuggestionsQuery(handle.db, 'responsibleLawyer', {
        organizationId: ORG,
        includeVaulted: true,
        query: 'Jane',
        limit: 10,
      }).compile(),
  },
  {
    name: 'matter-number-counter',
    source: 'nextMatterCounterQuery (matters.repository.ts)',
    compile: () => nextMatterCounterQuery(handle.db, ORG, 2026).compile(),
  },
  {
    name: 'session-lookup',
    source: 'liveSessionQuery (sessions.repository.ts)',
    compile: () => liveSessionQuery(handle.db, 'f'.repeat(64), NOW).compile(),
  },
  { name: 'node-path', source: 'pathNamesQuery (nodes.repository.ts)', compile: () => pathNamesQuery(NODE).compile(handle.db) },
  {
    name: 'node-self-or-descendant',
    source: 'selfOrDescendantQuery (nodes.repository.ts)',
    compile: () => selfOrDescendantQuery(NODE, OTHER_NODE).compile(handle.db),
  },
  {
    name: 'node-subtree-bin',
    source: 'binSubtreeQuery (bin.repository.ts)',
    compile: () => binSubtreeQuery(ORG, NODE, OTHER_NODE).compile(handle.db.withoutPlugins()),
  },
];

describe('hot queries', () => {
  it.each(cases)('$name matches its reviewed snapshot', ({ name, source, compile }) => {
    const file = path.join(here, `${name}.sql`);
    const actual = snapshotText(name, source, compile());
    if (update) fs.writeFileSync(file, actual);
    expect(fs.existsSync(file), `${name}.sql is missing: regenerate the snapshots (see the top of this test)`).toBe(true);
    expect(actual, `${name}.sql differs from the query: review the change, then regenerate the snapshots`).toBe(
      fs.readFileSync(file, 'utf8'),
    );
  });

  it('has a snapshot for every case and no snapshot without one', () => {
    const files = fs
      .readdirSync(here)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.replace(/\.sql$/, ''));
    expect(files.sort()).toEqual(cases.map((c) => c.name).sort());
  });
});
