/**
 * The hourly sweeps of sign-in ceremonies that can no longer be finished: a passkey challenge past its time and a
 * single sign-on state past its time are deleted by their jobs, while live ones are left and still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { PASSKEY_MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from './helpers.js';
import { freshTotp, newOrganizationWithTotp, ok, type TotpMember } from './factories.js';
import { SoftAuthenticator } from './soft-authenticator.js';
import { WEBAUTHN_CHALLENGE_SWEEP_JOB } from '../src/features/passkeys/passkeys.jobs.js';
import { SSO_STATE_SWEEP_JOB } from '../src/features/sso/sso.jobs.js';

let t: TestApp;
let admin: TotpMember;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Sweeping Firm LLP');
});
afterAll(() => t.shutdown());

async function runSweep(name: string): Promise<void> {
  await t.ctx.jobs.enqueue(t.ctx.db, name, {});
  expect(await t.ctx.jobs.runDueJobs([name])).toEqual({ completed: 1, failed: 0 });
}

async function challengeCount(challenge: string): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from webauthn_challenges where challenge = ${challenge}`.execute(t.ctx.db);
  return r.rows[0]!.n;
}

describe('ceremony sweeps', () => {
  it('deletes a passkey challenge past its time; a live one stays and registers a passkey', async () => {
    const stale = ok(await admin.client.post('/_api/settings/passkeys/registration-options', {}));
    const live = ok(await admin.client.post('/_api/settings/passkeys/registration-options', {}));
    await sql`update webauthn_challenges set expires_at = now() - interval '1 minute' where challenge = ${stale.challenge}`.execute(
      t.ctx.db,
    );

    await runSweep(WEBAUTHN_CHALLENGE_SWEEP_JOB);

    expect(await challengeCount(stale.challenge as string), 'the dead challenge is gone').toBe(0);
    expect(await challengeCount(live.challenge as string), 'the live challenge is kept').toBe(1);
    const late = await admin.client.post('/_api/settings/passkeys', {
      name: 'Old laptop',
      response: new SoftAuthenticator().register(stale),
      mfaToken: await freshTotp(t, admin),
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().error).toBe(PASSKEY_MSG.verificationFailed);
    const made = await admin.client.post('/_api/settings/passkeys', {
      name: 'Laptop',
      response: new SoftAuthenticator().register(live),
      mfaToken: await freshTotp(t, admin),
    });
    expect(made.statusCode).toBe(200);
  });

  it('deletes single sign-on states past their time, spent or not, and keeps live ones', async () => {
    const org = admin.organizationId;
    await sql`insert into sso_login_states (state_hash, organization_id, nonce, code_verifier, intent, expires_at, consumed_at)
      values ('dead-unspent', ${org}, 'n1', 'v1', 'sign-in', now() - interval '1 minute', null),
             ('dead-spent', ${org}, 'n2', 'v2', 'sign-in', now() - interval '1 minute', now() - interval '5 minutes'),
             ('live', ${org}, 'n3', 'v3', 'sign-in', now() + interval '10 minutes', null)`.execute(t.ctx.db);

    await runSweep(SSO_STATE_SWEEP_JOB);

    const left = await sql<{
      stateHash: string;
    }>`select state_hash from sso_login_states where organization_id = ${org} order by state_hash`.execute(t.ctx.db);
    expect(left.rows.map((r) => r.stateHash)).toEqual(['live']);
  });
});
