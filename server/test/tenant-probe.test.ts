/**
 * Tenant probes over every operation of GET /_api/openapi.json, from the samples table (probe-samples.ts).
 * Two organizations, Alpha and Beta, each with a TOTP-enrolled administrator, a matter, a folder, a stored file,
 * an open invitation, an open multipart upload and an uncompleted single PUT; Alpha also has a guest and a
 * plain user.
 * - Beta's administrator sends Alpha's ids in every id input: the answer is exactly the answer to an id that
 *   exists nowhere (same status, code and text; so never 200 with Alpha's data, never a 403 that tells the row
 *   exists), and none of Alpha's rows changes.
 * - Who may call each operation is read from its route's declaration (`config.access`): the guest and the plain
 *   user are refused (403) wherever the declared rules do not hold for them, and nothing of Alpha changes;
 *   where the rules hold, they get an answer, never a server failure.
 * - A signed-out client is refused (401) everywhere except the operations declared public or optional (each
 *   with its reason).
 * An operation without an entry, without a declaration, or with an id input no probe covers, fails the suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, type TestApp } from './helpers.js';
import { ACCESS_RULES, DEFAULT_PERMISSIONS, type AccessSubject } from '@strongroom/contracts';
import type { RouteAccess } from '../src/shared/route-access.js';
import { idValue, methodOf, nowhereValue, pathOf, SAMPLES } from './probe-samples.js';
import { changedTables, digest } from './probe/digest.js';
import { idInputs, loadOperations, type Operation } from './probe/openapi.js';
import { describe as describeAnswer, send, type ProbeRequest } from './probe/request.js';
import { answerOf, declaredAccess, substitute } from './probe/substitute.js';
import { addPerson, buildOrg, freshIp, type OrgWorld, type Person } from './probe/world.js';

let t: TestApp;
let alpha: OrgWorld;
let beta: OrgWorld;
let guest: Person;
let plainUser: Person;
let operations: Operation[];

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  alpha = await buildOrg(t, 'Alpha Legal LLP');
  beta = await buildOrg(t, 'Beta Advocates');
  guest = await addPerson(t, alpha.organizationId, 'guest');
  plainUser = await addPerson(t, alpha.organizationId, 'user');
  operations = await loadOperations(t);
}, 120_000);
afterAll(() => t?.shutdown());

/** Strings that only Alpha's own rows hold: none may appear in an answer to Beta. */
function alphaSecrets(): string[] {
  return [
    alpha.organizationId,
    alpha.matter.id,
    alpha.matter.name,
    alpha.folder.id,
    alpha.folder.name,
    alpha.file.id,
    alpha.file.name,
    alpha.file.storagePath,
    alpha.multipart.s3Key,
    alpha.multipart.uploadId,
    alpha.standard.s3Key,
    alpha.admin.email,
    alpha.name,
    alpha.invitation.email,
  ];
}

const sendAs = (client: Client, key: string, req: ProbeRequest) => send(client, methodOf(key), pathOf(key), req);

describe('tenant probes', () => {
  it('has an entry for every published operation, and a probe for every id input', () => {
    const missing = operations.filter((o) => !SAMPLES[o.key]).map((o) => o.key);
    expect(missing, 'operations without an entry in server/test/probe-samples.ts').toEqual([]);
    const uncovered: string[] = [];
    const undeclared = operations.filter((o) => !declaredAccess(t.app, o.key)).map((o) => o.key);
    expect(undeclared, 'operations whose route declares no access').toEqual([]);
    for (const op of operations) {
      const entry = SAMPLES[op.key];
      if (!entry) continue;
      const covered = new Set([...entry.idProbes.flatMap((p) => Object.keys(p.set)), ...Object.keys(entry.notIds ?? {})]);
      for (const input of idInputs(op)) if (!covered.has(input)) uncovered.push(`${op.key} ${input}`);
    }
    expect(uncovered, 'id inputs without an idProbe (or a notIds reason)').toEqual([]);
  });

  const withIds = Object.entries(SAMPLES).filter(([, e]) => e.idProbes.length > 0);
  for (const [key, entry] of withIds) {
    it(`${key}: another organization's ids answer as ids that exist nowhere, and change nothing`, async () => {
      const problems: string[] = [];
      for (const probe of entry.idProbes) {
        const label = `${probe.variant ? `[${probe.variant}] ` : ''}${Object.keys(probe.set).join(' + ')}`;
        const foreign = substitute(await entry.build({ t, me: beta }, probe.variant), probe.set, (k) => idValue(alpha, k));
        const nowhere: Array<string | number> = [];
        const control = substitute(await entry.build({ t, me: beta }, probe.variant), probe.set, (k) => {
          const v = nowhereValue(k);
          nowhere.push(v);
          return v;
        });
        const alphaBefore = await digest(t, alpha.organizationId);
        const resForeign = await sendAs(foreign.client ?? beta.admin.client, key, foreign);
        const alphaAfter = await digest(t, alpha.organizationId);
        const resControl = await sendAs(control.client ?? beta.admin.client, key, control);

        const sentForeign = Object.values(probe.set).map((k) => idValue(alpha, k));
        const a = answerOf(resForeign, sentForeign);
        const b = answerOf(resControl, nowhere);
        if (resForeign.statusCode >= 500) problems.push(`${label}: 5xx ${describeAnswer(resForeign)}`);
        if (JSON.stringify(a) !== JSON.stringify(b))
          problems.push(
            `${label}: Alpha's ids answered ${describeAnswer(resForeign)}, ids that exist nowhere ${describeAnswer(resControl)}`,
          );
        if (resForeign.statusCode < 300) {
          // Allowed only where the id is mere text to the server (and then as for any text): no Alpha data back.
          const leaked = alphaSecrets().filter((s) => resForeign.body.includes(s));
          if (leaked.length) problems.push(`${label}: answered ${resForeign.statusCode} with Alpha's ${leaked.join(', ')}`);
        }
        const changed = changedTables(alphaBefore, alphaAfter);
        if (changed.length || alphaAfter.auditCount !== alphaBefore.auditCount) {
          problems.push(
            `${label}: Alpha's rows changed (${[...changed, ...(alphaAfter.auditCount !== alphaBefore.auditCount ? ['audit_logs'] : [])].join(', ')})`,
          );
        }
      }
      expect(problems, key).toEqual([]);
    });
  }

  for (const [key, entry] of Object.entries(SAMPLES)) {
    it(`${key}: signed-out callers and the people its declared rules leave out are refused, and change nothing`, async () => {
      const access = declaredAccess(t.app, key);
      if (!access) {
        // A route published only in some setups (the web app's shell) is checked where it is published.
        expect(operations.map((o) => o.key)).not.toContain(key);
        return;
      }
      const open = access.who === 'public' || access.who === 'optional';
      const problems: string[] = [];
      // Signed out: the same valid request without any cookie.
      {
        const req = await entry.build({ t, me: alpha });
        const before = await digest(t);
        const res = await sendAs(new Client(t.app, freshIp()), key, { ...req, client: undefined });
        const after = await digest(t);
        if (res.statusCode >= 500) problems.push(`signed out: 5xx ${describeAnswer(res)}`);
        if (!open) {
          if (res.statusCode !== 401) problems.push(`signed out: expected 401, got ${describeAnswer(res)}`);
          const changed = changedTables(before, after);
          if (changed.length || after.auditCount !== before.auditCount)
            problems.push(`signed out: refused but changed ${changed.join(', ') || 'audit_logs'}`);
        }
      }
      const people = [
        ['guest', guest, subject('guest')],
        ['plain user', plainUser, subject('user')],
      ] as const;
      const refusedTo = open ? [] : people.filter(([, , s]) => !allowed(access, s));
      for (const [who, person] of refusedTo) {
        const req = await entry.build({ t, me: alpha });
        const before = await digest(t, alpha.organizationId);
        const res = await sendAs(person.client, key, { ...req, client: undefined });
        const after = await digest(t, alpha.organizationId);
        if (res.statusCode !== 403 && res.statusCode !== 401) problems.push(`${who}: expected 403, got ${describeAnswer(res)}`);
        const changed = changedTables(before, after);
        if (changed.length || after.auditCount !== before.auditCount)
          problems.push(`${who}: refused but changed ${changed.join(', ') || 'audit_logs'}`);
      }
      for (const [who, person, s] of people) {
        if (open || !allowed(access, s)) continue;
        // Let through by the declared rules: an answer, never a server failure.
        const res = await sendAs(person.client, key, { ...(await entry.build({ t, me: alpha })), client: undefined });
        if (res.statusCode >= 500) problems.push(`${who}: 5xx ${describeAnswer(res)}`);
      }
      expect(problems, key).toEqual([]);
    });
  }

  it("leaves Alpha's stored file and open upload as they were", async () => {
    const url = new URL((await alpha.admin.client.get(`/_api/nodes/download-url?nodeId=${alpha.file.id}`)).json().url);
    const got = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(got.statusCode).toBe(200);
    expect(Buffer.compare(got.rawPayload, alpha.file.bytes)).toBe(0);
    const parts = await alpha.admin.client.get(
      `/_api/upload/parts?uploadId=${encodeURIComponent(alpha.multipart.uploadId)}&s3Key=${encodeURIComponent(alpha.multipart.s3Key)}`,
    );
    expect(parts.statusCode).toBe(200);
    expect(parts.json().parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1]);
  });
});

/** A person of the role with the role's default permissions, as the probe world creates them. */
const subject = (role: 'guest' | 'user'): AccessSubject => ({ role, permissions: DEFAULT_PERMISSIONS[role], isActive: true });

function allowed(access: RouteAccess, s: AccessSubject): boolean {
  if (!('allow' in access) || access.allow === undefined) return true;
  const rules = typeof access.allow === 'string' ? [{ rule: access.allow }] : access.allow;
  return rules.every((r) => ACCESS_RULES[r.rule](s));
}
