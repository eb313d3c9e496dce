import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's layering, checked on the source: a feature's queries live in its repository, repositories never
 * open a transaction, routes only call services, a feature reaches another only through that feature's index.ts
 * (its one public surface), and features depend on each other without cycles (a cycle means two features cannot be
 * understood, tested or changed apart).
 *
 * Every feature is held to every rule, a new one included.
 */
const featuresDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/features');
const features = fs
  .readdirSync(featuresDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const LAYERED = features;

type Source = { feature: string; file: string; text: string };

/** The product's source files of a feature (tests and test fixtures left out). */
function sources(feature: string): Source[] {
  const dir = path.join(featuresDir, feature);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('-fixtures.ts'))
    .map((f) => ({ feature, file: `${feature}/${f}`, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** The relative modules a file imports or re-exports (type-only imports included: they tie features too). */
function imports(text: string): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/g)].map((m) => m[1]!);
}

/** The modules of other features a file imports, as [feature, file] pairs. */
function featureImports(src: Source): string[][] {
  return imports(src.text)
    .map((spec) => path.relative(featuresDir, path.resolve(featuresDir, src.feature, spec)).split(path.sep))
    .filter((parts) => parts.length > 1 && parts[0] !== '..' && parts[0] !== src.feature);
}

/** The other features a file depends on. */
function featureDeps(src: Source): string[] {
  return featureImports(src).map((parts) => parts[0]!);
}

const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`/;

describe('server layering', () => {
  it('keeps every query of a layered feature in its repository', () => {
    const found = LAYERED.flatMap(sources)
      .filter((s) => !s.file.endsWith('.repository.ts') && QUERY.test(s.text))
      .map((s) => s.file);
    expect(found).toEqual([]);
  });

  it('never opens a transaction in a repository: the service that owns the change does', () => {
    const found = features
      .flatMap(sources)
      .filter((s) => s.file.endsWith('.repository.ts') && /\.transaction\(\)/.test(s.text))
      .map((s) => s.file);
    expect(found).toEqual([]);
  });

  it('keeps the routes of layered features thin: no queries, no transactions, no repositories', () => {
    const found = LAYERED.flatMap(sources)
      .filter((s) => s.file.endsWith('.routes.ts'))
      .filter((s) => QUERY.test(s.text) || /\.transaction\(\)/.test(s.text) || imports(s.text).some((i) => i.includes('.repository.')))
      .map((s) => s.file);
    expect(found).toEqual([]);
  });

  it('answers HTTP only in routes and the session guard: services take no request or reply', () => {
    const found = LAYERED.flatMap(sources)
      .filter((s) => s.file.endsWith('.service.ts') || s.file.endsWith('.repository.ts'))
      .filter((s) => /\bFastify(Request|Reply)\b/.test(s.text))
      .map((s) => s.file);
    expect(found).toEqual([]);
  });

  it('reaches another feature only through its index.ts, never its service, repository or internals', () => {
    const found = LAYERED.flatMap(sources).flatMap((s) =>
      featureImports(s)
        .filter(([, file]) => file !== 'index.js')
        .map((parts) => `${s.file} -> ${parts.join('/')}`),
    );
    expect(found).toEqual([]);
  });

  it('has no cycle between features through a layered feature', () => {
    const graph = new Map(features.map((f) => [f, new Set(sources(f).flatMap(featureDeps))]));
    // Every feature from which `from` can be reached again, walking the dependencies.
    const cycles: string[] = [];
    for (const start of LAYERED) {
      const seen = new Set<string>();
      const stack: string[][] = [[start]];
      while (stack.length) {
        const trail = stack.pop()!;
        for (const next of graph.get(trail[trail.length - 1]!) ?? []) {
          if (next === start) cycles.push([...trail, start].join(' -> '));
          else if (!seen.has(next)) {
            seen.add(next);
            stack.push([...trail, next]);
          }
        }
      }
    }
    expect(cycles).toEqual([]);
  });

  it('reads the imports it checks (a guard against a check that sees nothing)', () => {
    const auth = new Set(sources('auth').flatMap(featureDeps));
    expect([...auth].sort()).toEqual(expect.arrayContaining(['mfa', 'sessions', 'users']));
    expect(LAYERED).toEqual(expect.arrayContaining(['auth', 'matters', 'nodes', 'security', 'setup', 'undo', 'uploads']));
  });
});
