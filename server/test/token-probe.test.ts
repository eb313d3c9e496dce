/**
 * API token probes over every operation of GET /_api/openapi.json, generated from the routes' declarations
 * (`config.access.tokenScope`) and the samples table (probe-samples.ts), so a new route is probed with tokens
 * from its first day:
 * - an operation that declares a scope answers a token of that scope alone as it answers the same person's
 *   session, and refuses (403, naming the missing scope) a token holding every other scope, changing nothing;
 * - an operation that declares no scope refuses a token of every scope (403, 'cannot be made with an API
 *   token'), changing nothing: the signed-in calls a tool may not make, and every step-up, stay out of reach;
 * - Beta's token of every scope sends Alpha's ids to every scoped operation: the answer is exactly the answer to
 *   ids that exist nowhere, and none of Alpha's rows changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { API_TOKEN_MSG, API_TOKEN_SCOPES, type ApiTokenScope } from '@strongroom/contracts';
import { Client, createTestApp, type TestApp } from './helpers.js';
import type { RouteAccess } from '../src/shared/route-access.js';
import { idValue, methodOf, nowhereValue, pathOf, SAMPLES } from './probe-samples.js';
import { changedTables, digest } from './probe/digest.js';
import { loadOperations, type Operation } from './probe/openapi.js';
import { describe as describeAnswer, send, type ProbeRequest } from './probe/request.js';
import { answerOf, declaredAccess, substitute } from './probe/substitute.js';
import { apiTokenOf, buildOrg, freshIp, type OrgWorld } from './probe/world.js';

let t: TestApp;
let alpha: OrgWorld;
let beta: OrgWorld;
let operations: Operation[];

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  alpha = await buildOrg(t, 'Alpha Legal LLP');
  beta = await buildOrg(t, 'Beta Advocates');
  operations = await loadOperations(t);
}, 120_000);
afterAll(() => t?.shutdown());

const scopeOf = (access: RouteAccess): ApiTokenScope | undefined => (access.who === 'signed-in' ? access.tokenScope : undefined);

/** A tool's client: no cookies, the token in the Authorization header. Each gets a fresh address. */
function asTool(token: string, key: string, req: ProbeRequest): Promise<LightMyRequestResponse> {
  const headers = { ...(req.headers ?? {}), authorization: `Bearer ${token}` };
  return send(new Client(t.app, freshIp()), methodOf(key), pathOf(key), { ...req, client: undefined, headers });
}

function errorOf(res: LightMyRequestResponse): string | undefined {
  try {
    const body = res.json() as { error?: unknown };
    return typeof body?.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

describe('API token probes', () => {
  it('covers every published operation with a declaration, and some operations are open to each scope', () => {
    const undeclared = operations.filter((o) => !declaredAccess(t.app, o.key)).map((o) => o.key);
    expect(undeclared).toEqual([]);
    const scopes = new Set(operations.map((o) => scopeOf(declaredAccess(t.app, o.key)!)).filter(Boolean));
    expect([...scopes].sort()).toEqual([...API_TOKEN_SCOPES].sort());
  });

  for (const [key, entry] of Object.entries(SAMPLES)) {
    it(`${key}: a token reaches it exactly as the route's declaration says`, async () => {
      const access = declaredAccess(t.app, key);
      if (!access || access.who === 'public') {
        // Public calls take no credential at all; a route published only in some setups is checked there.
        if (!access) expect(operations.map((o) => o.key)).not.toContain(key);
        return;
      }
      const scope = scopeOf(access);
      const problems: string[] = [];
      const refusedWith = async (scopes: readonly ApiTokenScope[], text: string, label: string) => {
        const tok = await apiTokenOf(t, alpha.admin, scopes);
        const req = await entry.build({ t, me: alpha });
        const before = await digest(t, alpha.organizationId);
        const res = await asTool(tok.token, key, req);
        const after = await digest(t, alpha.organizationId);
        if (res.statusCode !== 403 || errorOf(res) !== text) problems.push(`${label}: expected 403 "${text}", got ${describeAnswer(res)}`);
        const changed = changedTables(before, after);
        if (changed.length || after.auditCount !== before.auditCount)
          problems.push(`${label}: refused but changed ${changed.join(', ') || 'audit_logs'}`);
      };
      if (!scope) {
        await refusedWith(API_TOKEN_SCOPES, API_TOKEN_MSG.notForTokens, 'a token of every scope');
      } else {
        const others = API_TOKEN_SCOPES.filter((s) => s !== scope);
        await refusedWith(others, API_TOKEN_MSG.missingScope(scope), `a token without ${scope}`);
        const tok = await apiTokenOf(t, alpha.admin, [scope]);
        const req = await entry.build({ t, me: alpha });
        const viaToken = await asTool(tok.token, key, req);
        const viaSession = await send(alpha.admin.client, methodOf(key), pathOf(key), await entry.build({ t, me: alpha }));
        if (viaToken.statusCode !== viaSession.statusCode)
          problems.push(`a token of ${scope} answered ${describeAnswer(viaToken)}, the session ${describeAnswer(viaSession)}`);
      }
      expect(problems, key).toEqual([]);
    });
  }

  const scopedWithIds = () =>
    Object.entries(SAMPLES).filter(
      ([key, e]) => e.idProbes.length > 0 && declaredAccess(t.app, key) && scopeOf(declaredAccess(t.app, key)!),
    );
  it("Beta's tokens reach none of Alpha's rows through any scoped operation", async () => {
    const problems: string[] = [];
    const entries = scopedWithIds();
    expect(entries.length).toBeGreaterThan(5);
    for (const [key, entry] of entries) {
      for (const probe of entry.idProbes) {
        const label = `${key} ${probe.variant ? `[${probe.variant}] ` : ''}${Object.keys(probe.set).join(' + ')}`;
        const tok = await apiTokenOf(t, beta.admin);
        const foreign = substitute(await entry.build({ t, me: beta }, probe.variant), probe.set, (k) => idValue(alpha, k));
        const nowhere: Array<string | number> = [];
        const control = substitute(await entry.build({ t, me: beta }, probe.variant), probe.set, (k) => {
          const v = nowhereValue(k);
          nowhere.push(v);
          return v;
        });
        const before = await digest(t, alpha.organizationId);
        const resForeign = await asTool(tok.token, key, foreign);
        const after = await digest(t, alpha.organizationId);
        const resControl = await asTool(tok.token, key, control);
        const a = answerOf(
          resForeign,
          Object.values(probe.set).map((k) => idValue(alpha, k)),
        );
        const b = answerOf(resControl, nowhere);
        if (JSON.stringify(a) !== JSON.stringify(b))
          problems.push(
            `${label}: Alpha's ids answered ${describeAnswer(resForeign)}, ids that exist nowhere ${describeAnswer(resControl)}`,
          );
        if (resForeign.statusCode < 300 && [alpha.matter.name, alpha.file.name, alpha.folder.name].some((s) => resForeign.body.includes(s)))
          problems.push(`${label}: answered ${resForeign.statusCode} with Alpha's data`);
        const changed = changedTables(before, after);
        if (changed.length || after.auditCount !== before.auditCount)
          problems.push(`${label}: Alpha's rows changed (${changed.join(', ') || 'audit_logs'})`);
      }
    }
    expect(problems).toEqual([]);
  });
});
