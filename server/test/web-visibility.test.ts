/**
 * The web app shows a control exactly to the people the server lets through: for every entry of the web's
 * visibility table (web/src/lib/access-visibility.ts), the call it leads to is a route whose declared rules
 * hold for precisely the same people as the web's rule, over every role and every combination of
 * permissions, active or not. Each control is also used by the web app (a control nobody shows is stale).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_RULES, PERMISSION_KEYS, ROLES, may, type AccessSubject, type Permissions } from '@strongroom/contracts';
import { VISIBILITY } from '../../web/src/lib/access-visibility.js';
import type { AllowRule, RouteAccess } from '../src/shared/route-access.js';
import { createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
});
afterAll(() => t?.shutdown());

/** Every person the rules can tell apart: each role, each combination of permissions, active or deactivated. */
function everyone(): AccessSubject[] {
  const people: AccessSubject[] = [];
  for (let bits = 0; bits < 1 << PERMISSION_KEYS.length; bits++) {
    const permissions = Object.fromEntries(PERMISSION_KEYS.map((k, i) => [k, (bits & (1 << i)) !== 0])) as Permissions;
    for (const role of ROLES) for (const isActive of [true, false]) people.push({ role, permissions, isActive });
  }
  return people;
}

function declaredRules(access: RouteAccess): readonly AllowRule[] {
  if (!('allow' in access) || access.allow === undefined) return [];
  return typeof access.allow === 'string' ? [{ rule: access.allow }] : access.allow;
}

const webSources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return webSources(p);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [p] : [];
  });

describe('web visibility and route declarations', () => {
  it('agree for every control, for every person', () => {
    const people = everyone();
    const problems: string[] = [];
    for (const [control, { rule, call }] of Object.entries(VISIBILITY)) {
      const access = t.app.routeAccess.get(call);
      if (!access) {
        problems.push(`${control}: ${call} is not a route`);
        continue;
      }
      const rules = declaredRules(access);
      const disagree = people.filter((p) => may(p, rule) !== rules.every((r) => ACCESS_RULES[r.rule](p)));
      if (disagree.length > 0) {
        const p = disagree[0]!;
        const perms = PERMISSION_KEYS.filter((k) => p.permissions[k]).join(',') || 'none';
        problems.push(
          `${control}: the web shows it by '${rule}', ${call} declares [${rules.map((r) => r.rule).join(', ')}]; ` +
            `they disagree for ${disagree.length} people, e.g. a${p.isActive ? 'n active' : ' deactivated'} ${p.role} holding ${perms}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('has every control in use by the web app', () => {
    const root = path.resolve(import.meta.dirname, '../../web/src');
    const text = webSources(root)
      .filter((f) => !f.endsWith('access-visibility.ts'))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    const unused = Object.keys(VISIBILITY).filter((control) => !new RegExp(`shows\\([^,()]+, '${control}'\\)`).test(text));
    expect(unused).toEqual([]);
  });
});
