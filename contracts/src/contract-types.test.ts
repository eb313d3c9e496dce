import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index.js';

/**
 * The contracts are the one source of every request and answer type: each request, answer and query schema
 * exports its type beside it, and the web app's calls take those types instead of keeping copies that could
 * drift from what the server validates.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '../../web/src');

const sourceFiles = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));

const contractSource = sourceFiles(here)
  .map((f) => fs.readFileSync(f, 'utf8'))
  .join('\n');

/** Names imported from '@strongroom/contracts' in one web file. */
function contractImports(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'@strongroom\/contracts'/g)) {
    for (const part of m[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** The web's API call files: every features/<f>/api file, and the lib files that call the API themselves. */
function webCallFiles(): string[] {
  const features = path.join(web, 'features');
  const apiFiles = fs
    .readdirSync(features)
    .map((f) => path.join(features, f, 'api'))
    .filter((dir) => fs.existsSync(dir))
    .flatMap(sourceFiles);
  const libCallers = sourceFiles(path.join(web, 'lib')).filter(
    (f) => !f.endsWith('api-client.ts') && /\bapiRequest\b/.test(fs.readFileSync(f, 'utf8')),
  );
  return [...apiFiles, ...libCallers];
}

describe('contracts own the request and answer types', () => {
  it('every request, answer and query schema exports its type', () => {
    const schemas = Object.entries(contracts).filter(
      ([name, value]) => value instanceof z.ZodType && /(Request|Response|Query)$/.test(name),
    );
    expect(schemas.length).toBeGreaterThan(40);
    const missing = schemas
      .map(([name]) => name)
      .filter((name) => !new RegExp(`export type \\w+ = z\\.(infer|input)<typeof ${name}>`).test(contractSource));
    expect(missing).toEqual([]);
  });

  it("the web's calls name their request and answer types from the contracts, never a copy of their own", () => {
    const files = webCallFiles();
    expect(files.length).toBeGreaterThan(30);
    const problems: string[] = [];
    for (const file of files) {
      const source = fs.readFileSync(file, 'utf8');
      const where = path.relative(web, file);
      const imported = contractImports(source);
      if (/\binterface\s+\w+/.test(source)) problems.push(`${where}: declares an interface`);
      if (/\bz\.(infer|input|output)</.test(source)) problems.push(`${where}: derives a contract type itself`);
      for (const m of source.matchAll(/type\s+(\w+(?:Request|Response|Body|Params|Variables|Query))\s*=\s*\{/g)) {
        problems.push(`${where}: writes out ${m[1]}`);
      }
      if (/Promise<\s*\{/.test(source)) problems.push(`${where}: writes out an answer type`);
      if (/\bbody\s*:\s*\{[^}]*:\s*(string|number|boolean)/.test(source)) problems.push(`${where}: writes out a request body type`);
      // A wrapper that passes its own type parameter through (function call<T>) is checked where it is called.
      const typeParameters = new Set([...source.matchAll(/function\s+\w+<(\w+)>/g)].map((m) => m[1]!));
      for (const m of source.matchAll(/\b(apiRequest|teamRequest|withCode)(?:<([^>]*)>)?\(/g)) {
        const answer = m[2]?.trim();
        if (!answer) {
          if (m[1] === 'apiRequest') problems.push(`${where}: an apiRequest call without its answer type`);
        } else if (!imported.has(answer) && !typeParameters.has(answer)) {
          problems.push(`${where}: answer type ${answer} is not imported from the contracts`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
