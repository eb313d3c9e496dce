/**
 * Input fuzz over every operation of GET /_api/openapi.json. Each operation starts from its valid request in
 * probe-samples.ts (sent by a TOTP-enrolled administrator unless the sample names another client) and gets
 * hostile variants (probe/mutations.ts). Rules checked for every variant:
 * - never a 5xx;
 * - an answer in 4xx changed no row of any application table (probe/digest.ts says which bookkeeping columns
 *   and security counters are left out, and why) and wrote no audit entry other than a security event;
 * - a state-changing /_api call from a foreign Origin is refused.
 * Finally the valid request itself must succeed, so each variant differs from a working call in one thing.
 * An operation without a sample fails the suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';
import { methodOf, pathOf, SAMPLES } from './probe-samples.js';
import { auditActionsSince, changedTables, digest, REFUSAL_AUDIT_ACTIONS } from './probe/digest.js';
import { mutationsFor } from './probe/mutations.js';
import { loadOperations, type Operation } from './probe/openapi.js';
import { describe as describeAnswer, send, type ProbeRequest } from './probe/request.js';
import { buildOrg, type OrgWorld } from './probe/world.js';

let t: TestApp;
let world: OrgWorld;
let operations: Operation[];

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  world = await buildOrg(t, 'Fuzz & Partners LLP');
  operations = await loadOperations(t);
}, 120_000);
afterAll(() => t?.shutdown());

describe('input fuzz', () => {
  it('has a valid sample request for every published operation, and no sample for an operation that is gone', () => {
    const published = operations.map((o) => o.key).sort();
    expect(
      published.filter((k) => !SAMPLES[k]),
      'operations without an entry in server/test/probe-samples.ts',
    ).toEqual([]);
    const gone = Object.entries(SAMPLES).filter(([k, e]) => !published.includes(k) && (!e.publishedWhen || e.publishedWhen.check(t)));
    expect(
      gone.map(([k]) => k),
      'samples for operations the OpenAPI document does not list',
    ).toEqual([]);
  });

  it('sees a changed row in the digest it compares, and not the idle bookkeeping', async () => {
    const before = await digest(t);
    await t.ctx.db.updateTable('matters').set({ description: 'changed behind the API' }).where('id', '=', world.matter.id).execute();
    const after = await digest(t);
    expect(changedTables(before, after)).toEqual(['matters']);
    const bumped = await digest(t);
    await t.ctx.db
      .updateTable('sessions')
      .set({ lastSeenAt: new Date(Date.now() + 1000) })
      .execute();
    expect(changedTables(bumped, await digest(t)), 'idle bookkeeping is not a change').toEqual([]);
  });

  for (const key of Object.keys(SAMPLES)) {
    it(`${key}: no 5xx, and refused variants change nothing`, async () => {
      const op = operations.find((o) => o.key === key);
      const entry = SAMPLES[key]!;
      if (!op && entry.publishedWhen) {
        // Not registered in this setup, rightly so: nothing to probe.
        expect(entry.publishedWhen.check(t), `${key}: ${entry.publishedWhen.why}`).toBe(false);
        return;
      }
      expect(op, `${key} is not in the OpenAPI document`).toBeDefined();
      const problems: string[] = [];
      // Counters of refused attempts belong to the previous operation's variants, not to this one.
      await t.ctx.db.deleteFrom('authThrottle').execute();
      const build = async (): Promise<ProbeRequest> => entry.build({ t, me: world });
      const sample = await build();
      const client = sample.client ?? world.admin.client;
      let before = await digest(t);
      let anySucceeded = false;
      for (const m of mutationsFor(op!, sample)) {
        const res = await send(client, methodOf(key), pathOf(key), m.req);
        const where = `${m.label} -> ${describeAnswer(res)}`;
        if (res.statusCode >= 500) problems.push(`5xx: ${where}`);
        if (m.mustRefuse && res.statusCode < 400) problems.push(`accepted: ${where}`);
        const after = await digest(t);
        if (res.statusCode >= 400 && res.statusCode < 500) {
          const changed = changedTables(before, after);
          if (changed.length) problems.push(`refused but changed ${changed.join(', ')}: ${where}`);
          if (after.auditCount !== before.auditCount) {
            const written = (await auditActionsSince(t, before)).filter((a) => !REFUSAL_AUDIT_ACTIONS.has(a));
            if (written.length) problems.push(`refused but audited ${written.join(', ')}: ${where}`);
          }
        }
        if (res.statusCode < 400) anySucceeded = true;
        before = after;
      }
      // The valid request, built anew if a variant was accepted and may have used up the first one.
      await t.ctx.db.deleteFrom('authThrottle').execute();
      const valid = anySucceeded ? await build() : sample;
      const res = await send(valid.client ?? world.admin.client, methodOf(key), pathOf(key), valid);
      const expected = entry.expectStatus?.status;
      if (expected ? res.statusCode !== expected : res.statusCode >= 300) problems.push(`the valid sample answered ${describeAnswer(res)}`);
      expect(problems, `${key}`).toEqual([]);
    });
  }
});
