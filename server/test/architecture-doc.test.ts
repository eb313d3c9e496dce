import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the map a newcomer reads first, so it must name every feature folder (server and web)
 * and every table of the schema. A feature or a table added without a line there fails this test.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');

function featureFolders(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
}

/** The tables of the Kysely `DB` interface (kept equal to the migrations by schema-drift.test.ts), in SQL spelling. */
function schemaTables(): string[] {
  const schema = fs.readFileSync(path.join(root, 'server/src/platform/db/schema.ts'), 'utf8');
  const body = /export interface DB \{([^}]*)\}/.exec(schema)?.[1] ?? '';
  return [...body.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]!.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
}

describe('docs/architecture.md', () => {
  it('reads the schema (the test would pass on nothing otherwise)', () => {
    expect(schemaTables()).toContain('audit_logs');
    expect(schemaTables().length).toBeGreaterThan(20);
  });

  it.each([['server/src/features'], ['web/src/features']])('names every feature folder of %s', (dir) => {
    const missing = featureFolders(dir).filter((f) => !new RegExp(`(^|[\\s(,])${f}/`, 'm').test(doc));
    expect(missing, `add a line for each to docs/architecture.md`).toEqual([]);
  });

  it('names every table', () => {
    const missing = schemaTables().filter((t) => !new RegExp(`\\b${t}\\b`).test(doc));
    expect(missing, `add each to the Data section of docs/architecture.md`).toEqual([]);
  });
});

describe('docs/decisions.md', () => {
  const decisions = fs.readFileSync(path.join(root, 'docs/decisions.md'), 'utf8');
  const index = /\n## Index\n([\s\S]*?)\n## /.exec(decisions)?.[1] ?? '';
  const sections = [...decisions.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((h) => h !== 'Index');

  it('opens with an index that lists every section in order', () => {
    const listed = [...index.matchAll(/^- \[(.+)\]\(#[^)]+\)$/gm)].map((m) => m[1]!);
    expect(sections.length).toBeGreaterThan(10);
    expect(listed).toEqual(sections);
  });
});
