/**
 * Every step-up a route declares is enforced, for every such route the app registers (read from the
 * declarations, so a new one is covered from its first day). For each, with the sample request of
 * probe-samples.ts sent by a person with an authenticator:
 * - without any code or token: 401 MFA_REQUIRED naming the declared operation, and nothing changes;
 * - with a live system MFA token of every other risk class (and, where only a fresh code serves, of every
 *   class): refused with 401, and nothing changes;
 * - with a stale code (one the authenticator showed ten minutes ago): 401 MFA_INVALID, and nothing changes;
 * - with a fresh code: the call goes through.
 * A refused request may write only the refusal's own audit entry (MFA_VERIFICATION_FAILED).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, SYSTEM_MFA_OPERATIONS } from '@strongroom/contracts';
import { riskClassOf } from '../src/features/mfa/mfa.service.js';
import { decryptTotpSecret } from '../src/features/mfa/secret-box.js';
import { currentTotp, newTotpSecret } from '../src/features/mfa/totp.js';
import { hashToken } from '../src/shared/tokens.js';
import type { RouteAccess, StepUpDeclaration } from '../src/shared/route-access.js';
import { createTestApp, type Client, type TestApp } from './helpers.js';
import { methodOf, pathOf, SAMPLES } from './probe-samples.js';
import { auditActionsSince, changedTables, digest, REFUSAL_AUDIT_ACTIONS } from './probe/digest.js';
import { describe as describeAnswer, send, type ProbeRequest } from './probe/request.js';
import { buildOrg, uniqueName, type OrgWorld } from './probe/world.js';

let t: TestApp;
let me: OrgWorld;
let declared: Array<[key: string, stepUp: StepUpDeclaration]>;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  me = await buildOrg(t, 'Step-Up Partners LLP');
  declared = [...t.app.routeAccess]
    .filter((entry): entry is [string, RouteAccess & { stepUp: StepUpDeclaration }] => 'stepUp' in entry[1] && !!entry[1].stepUp)
    .map(([key, access]) => [key, access.stepUp]);
}, 120_000);
afterAll(() => t?.shutdown());

/**
 * Requests whose step-up depends on what is asked: the sample made to ask for it (a change of one's own
 * sign-in email takes a code; a change of name alone does not).
 */
const TRIGGERS: Record<string, (req: ProbeRequest) => ProbeRequest> = {
  // Approving takes a code; rejecting does not.
  'POST /_api/approvals/decide': (req) => {
    const { reason: _reason, ...body } = req.body as Record<string, unknown>;
    return { ...req, body: { ...body, decision: 'approve' } };
  },
  // Destroying takes a code; extending or holding does not (the sample destroys already).
  'POST /_api/disposition/decide': (req) => ({ ...req, body: { ...(req.body as object), decision: 'destroy' } }),
  'POST /_api/settings/profile': (req) => ({
    ...req,
    body: { ...(req.body as object), email: `${uniqueName('moved').replace(/\W+/g, '.')}@firm.test` },
  }),
};

/** The signed-in user behind a client's session cookie. */
async function userOf(client: Client): Promise<number> {
  const token = client.cookies.get('sr_session');
  if (!token) throw new Error('the sample client is not signed in');
  const row = await t.ctx.db.selectFrom('sessions').select('userId').where('tokenHash', '=', hashToken(token)).executeTakeFirstOrThrow();
  return row.userId;
}

/** The user's authenticator secret, set up first for a user of emailed codes; its last used step forgotten. */
async function authenticatorOf(userId: number): Promise<string> {
  const user = await t.ctx.db
    .selectFrom('users')
    .select(['totpSecret', 'mfaPrimaryMethod'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  let secret: string;
  if (user.totpSecret && user.mfaPrimaryMethod === 'totp') {
    secret = await decryptTotpSecret(t.config, userId, user.totpSecret);
  } else {
    secret = newTotpSecret();
    await t.ctx.db
      .updateTable('users')
      .set({ mfaEnabled: true, mfaPrimaryMethod: 'totp', totpSecret: secret })
      .where('id', '=', userId)
      .execute();
  }
  await freshSteps(userId);
  return secret;
}

/**
 * Forgets the last used step (tests need more codes than the clock gives) and every throttle count (wrong codes,
 * the user-management call budget): this suite makes many calls as one person on purpose.
 */
async function freshSteps(userId: number): Promise<void> {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', userId).execute();
  await t.ctx.db.deleteFrom('authThrottle').execute();
}

/** A live system MFA token of `operation`, bought with a fresh code. */
async function tokenFor(client: Client, userId: number, secret: string, operation: string): Promise<string> {
  await freshSteps(userId);
  const res = await client.post('/_api/auth/verifySystemMfa', { operation, mfaToken: currentTotp(secret) });
  expect(res.statusCode, `verifySystemMfa ${operation}: ${res.body}`).toBe(200);
  await freshSteps(userId);
  return (res.json() as { systemMfaToken: string }).systemMfaToken;
}

/** The request with every code and token taken out (body, query and header). */
function withoutCode(req: ProbeRequest): ProbeRequest {
  const body = req.body && typeof req.body === 'object' ? { ...(req.body as Record<string, unknown>) } : req.body;
  if (body && typeof body === 'object') delete (body as Record<string, unknown>).mfaToken;
  const query = req.query ? { ...req.query } : undefined;
  if (query) delete query.mfaToken;
  const headers = Object.fromEntries(Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'x-mfa-token'));
  return { ...req, body, query, headers };
}

/** Calls whose body must carry the code (the contract refuses the body without it, 400 'MFA token is required.'). */
const BODY_CODE_REQUIRED = new Set(['POST /_api/settings/users/reset-mfa']);

/** The request with a code or token in the X-MFA-Token header (read first), and in the body where it must be. */
function withCode(c: Case, code: string): ProbeRequest {
  const req = { ...c.req, headers: { ...(c.req.headers ?? {}), 'x-mfa-token': code } };
  return BODY_CODE_REQUIRED.has(c.key) ? { ...req, body: { ...(req.body as object), mfaToken: code } } : req;
}

type Case = { key: string; stepUp: StepUpDeclaration; client: Client; userId: number; secret: string; req: ProbeRequest };

async function caseOf(key: string, stepUp: StepUpDeclaration): Promise<Case> {
  const sample = SAMPLES[key];
  if (!sample) throw new Error(`${key} has no sample in probe-samples.ts`);
  const built = await sample.build({ t, me });
  const req = withoutCode((TRIGGERS[key] ?? ((r: ProbeRequest) => r))(built));
  const client = built.client ?? me.admin.client;
  const userId = await userOf(client);
  const secret = await authenticatorOf(userId);
  return { key, stepUp, client, userId, secret, req: { ...req, client: undefined } };
}

/** Sends a request that must be refused with `status`/`code`, and checks that it changed nothing. */
async function refused(c: Case, req: ProbeRequest, label: string, codes: string[]): Promise<string[]> {
  const before = await digest(t);
  const res = await send(c.client, methodOf(c.key), pathOf(c.key), req);
  const after = await digest(t);
  const problems: string[] = [];
  const code = (res.json() as { code?: string }).code ?? '';
  if (res.statusCode !== 401 || !codes.includes(code))
    problems.push(`${label}: expected 401 ${codes.join('/')}, got ${describeAnswer(res)}`);
  // Signing the audit chain's head is the anchor's own work (the chain export signs before it asks for a code).
  const changed = changedTables(before, after).filter((name) => name !== 'auditSignedHeads');
  if (changed.length) problems.push(`${label}: refused but changed ${changed.join(', ')}`);
  const written = (await auditActionsSince(t, before)).filter((a) => !REFUSAL_AUDIT_ACTIONS.has(a));
  if (written.length) problems.push(`${label}: refused but audited ${written.join(', ')}`);
  return problems;
}

describe('declared step-ups', () => {
  it('are declared on the sensitive calls, each with a sample to try it with', () => {
    const keys = declared.map(([key]) => key);
    // The calls that must never run on a session alone, whatever the organization's flags say.
    for (const key of [
      'POST /_api/vault/start',
      'POST /_api/settings/feature-flags',
      'GET /_api/audit-logs/export',
      'GET /_api/audit-logs/chain-export',
      'GET /_api/system/archival-stats',
      'POST /_api/system/archive-audit-logs',
      'POST /_api/settings/users/reset-mfa',
      'POST /_api/settings/mfa/recovery-codes',
    ]) {
      expect(keys, key).toContain(key);
    }
    expect(keys.filter((k) => !SAMPLES[k])).toEqual([]);
    const conditional = declared.filter(([, s]) => s.when).map(([k]) => k);
    expect(
      conditional.filter((k) => !TRIGGERS[k]),
      'a conditional step-up needs a trigger here',
    ).toEqual([]);
  });

  it('refuse a call without a code, with MFA_REQUIRED naming the operation', async () => {
    const problems: string[] = [];
    for (const [key, stepUp] of declared) {
      const c = await caseOf(key, stepUp);
      if (BODY_CODE_REQUIRED.has(key)) {
        // This call's body must carry the code: without one it is refused as invalid input.
        const res = await send(c.client, methodOf(key), pathOf(key), c.req);
        expect([res.statusCode, (res.json() as { error: string }).error], key).toEqual([400, MSG.mfaTokenRequired]);
        continue;
      }
      const res = await send(c.client, methodOf(key), pathOf(key), c.req);
      const body = res.json() as { code?: string; details?: { operation?: string } };
      if (res.statusCode !== 401 || body.code !== 'MFA_REQUIRED' || body.details?.operation !== stepUp.operation) {
        problems.push(`${key}: expected 401 MFA_REQUIRED for ${stepUp.operation}, got ${describeAnswer(res)}`);
      }
      problems.push(...(await refused(c, c.req, 'no code', ['MFA_REQUIRED'])).map((p) => `${key} ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('refuse a system MFA token of every other risk class (of every class where only a fresh code serves)', async () => {
    const problems: string[] = [];
    for (const [key, stepUp] of declared) {
      const c = await caseOf(key, stepUp);
      const others = SYSTEM_MFA_OPERATIONS.filter((op) => stepUp.accepts === 'code' || riskClassOf(op) !== riskClassOf(stepUp.operation));
      for (const op of others) {
        const token = await tokenFor(c.client, c.userId, c.secret, op);
        for (const p of await refused(c, withCode(c, token), 'token', ['MFA_INVALID', 'MFA_REQUIRED']))
          problems.push(`${key} [${op}] ${p}`);
      }
    }
    expect(problems).toEqual([]);
    // Every declared step-up times every system token class: the time grows with each new sensitive call.
  }, 240_000);

  it('refuse a stale code with MFA_INVALID, and let a fresh one through', async () => {
    const problems: string[] = [];
    for (const [key, stepUp] of declared) {
      const c = await caseOf(key, stepUp);
      const stale = currentTotp(c.secret, Date.now() - 10 * 60_000);
      problems.push(...(await refused(c, withCode(c, stale), 'stale code', ['MFA_INVALID'])).map((p) => `${key} ${p}`));
      await freshSteps(c.userId);
      const res = await send(c.client, methodOf(key), pathOf(key), withCode(c, currentTotp(c.secret)));
      const expected = SAMPLES[key]?.expectStatus?.status;
      if (expected ? res.statusCode !== expected : res.statusCode >= 400)
        problems.push(`${key}: a fresh code was refused: ${describeAnswer(res)}`);
    }
    expect(problems).toEqual([]);
  }, 240_000);
});
