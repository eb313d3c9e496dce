import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { createTestApp, uniqueEmail, type TestApp } from '../../../test/helpers.js';
import { auditActions, newOrganizationWithTotp, ok, type TotpMember } from '../../../test/factories.js';
import { currentTotp } from './index.js';

/**
 * Step-up cannot be laundered: a system MFA token serves only its own risk class, turning a safeguard off takes a
 * fresh code whatever token is held, and one's own MFA settings are a class apart from managing people.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.shutdown());

/** The authenticator's current code, usable again (the last used step is forgotten: tests need more codes than the clock gives). */
async function code(m: TotpMember): Promise<string> {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', m.userId).execute();
  return currentTotp(m.totpSecret);
}

/** A system MFA token bought with a fresh code for the operation. */
async function tokenFor(m: TotpMember, operation: string): Promise<string> {
  return ok(await m.client.post('/_api/auth/verifySystemMfa', { operation, mfaToken: await code(m) })).systemMfaToken;
}

const flagsOf = async (m: TotpMember): Promise<Record<string, boolean>> =>
  Object.fromEntries(
    (ok(await m.client.get('/_api/settings/feature-flags')).featureFlags as Array<{ flagName: string; enabled: boolean }>).map((f) => [
      f.flagName,
      f.enabled,
    ]),
  );
const setFlag = (m: TotpMember, flagName: string, enabled: boolean, mfaToken: string) =>
  m.client.post('/_api/settings/feature-flags', { flagsToUpdate: [{ flagName, enabled }], mfaToken });
const flagUpdates = async (m: TotpMember) => (await auditActions(t, m.organizationId)).filter((a) => a.action === 'UPDATE_FEATURE_FLAGS');

describe('turning an MFA feature flag off', () => {
  let admin: TotpMember;
  beforeAll(async () => {
    admin = await newOrganizationWithTotp(t, 'Safeguards LLP');
  });

  it('refuses a system token of the organization class (or any class) with MFA_REQUIRED, and changes nothing', async () => {
    const before = (await flagUpdates(admin)).length;
    // The organization class is the one that changes flags: its tokens are asked for a fresh code instead.
    for (const operation of ['MANAGE_FEATURE_FLAGS', 'MFA_ORGANIZATION_SETTINGS', 'MFA_RETENTION_POLICIES', 'MFA_SYSTEM_OPERATIONS']) {
      const token = await tokenFor(admin, operation);
      const r = await setFlag(admin, 'MFA_USER_MANAGEMENT', false, token);
      expect(r.statusCode, operation).toBe(401);
      expect(r.json(), operation).toMatchObject({
        code: 'MFA_REQUIRED',
        mfaRequired: true,
        details: { operation: 'MANAGE_FEATURE_FLAGS', mfaMethod: 'totp', availableMethods: ['totp'] },
      });
    }
    // Tokens of other classes never served flags at all.
    for (const operation of ['MFA_USER_MANAGEMENT', 'MFA_SETTINGS', 'EXPORT_AUDIT_LOGS']) {
      const r = await setFlag(admin, 'MFA_USER_MANAGEMENT', false, await tokenFor(admin, operation));
      expect(r.statusCode, operation).toBe(401);
      expect(r.json().code, operation).toBe('MFA_INVALID');
    }
    expect((await flagsOf(admin)).MFA_USER_MANAGEMENT).toBe(true);
    expect(await flagUpdates(admin)).toHaveLength(before);
  });

  it('turns the flag off with a fresh code, and audits that a code was given', async () => {
    const r = await setFlag(admin, 'MFA_USER_MANAGEMENT', false, await code(admin));
    expect(r.statusCode, r.body).toBe(200);
    expect((await flagsOf(admin)).MFA_USER_MANAGEMENT).toBe(false);
    expect((await flagUpdates(admin)).at(-1)?.details).toMatchObject({ changed: ['MFA_USER_MANAGEMENT'], mfa: 'code' });
  });

  it('still lets an organization-class token turn a flag on, change the flag that guards nothing, or repeat an off flag', async () => {
    const token = await tokenFor(admin, 'MANAGE_FEATURE_FLAGS');
    // MFA_USER_MANAGEMENT is off already: saying off again removes no safeguard.
    expect((await setFlag(admin, 'MFA_USER_MANAGEMENT', false, token)).statusCode).toBe(200);
    expect((await setFlag(admin, 'MFA_USER_MANAGEMENT', true, token)).statusCode).toBe(200);
    expect((await setFlag(admin, 'enhanced_user_management', true, token)).statusCode).toBe(200);
    expect((await setFlag(admin, 'enhanced_user_management', false, token)).statusCode).toBe(200);
    expect((await flagUpdates(admin)).at(-1)?.details).toMatchObject({ mfa: 'system-token' });
    expect(await flagsOf(admin)).toMatchObject({ MFA_USER_MANAGEMENT: true, enhanced_user_management: false });
    // Turning one safeguard off among other changes is still refused as a whole.
    const mixed = await admin.client.post('/_api/settings/feature-flags', {
      flagsToUpdate: [
        { flagName: 'enhanced_user_management', enabled: true },
        { flagName: 'MFA_VAULT_OPERATIONS', enabled: false },
      ],
      mfaToken: token,
    });
    expect(mixed.json().code).toBe('MFA_REQUIRED');
    expect(await flagsOf(admin)).toMatchObject({ MFA_VAULT_OPERATIONS: true, enhanced_user_management: false });
  });
});

describe("one's own MFA settings are a class of their own", () => {
  it('a token issued for own MFA settings cannot invite an administrator; a people token can', async () => {
    const admin = await newOrganizationWithTotp(t, 'Own Class LLP');
    const own = await tokenFor(admin, 'MFA_SETTINGS');
    const refused = await admin.client.post('/_api/settings/users/invite', { email: uniqueEmail('boss'), role: 'admin', mfaToken: own });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'MFA_INVALID', error: MSG.invalidCode });
    expect((await auditActions(t, admin.organizationId)).filter((a) => a.action === 'INVITE_USER')).toHaveLength(0);

    const people = await tokenFor(admin, 'MFA_USER_MANAGEMENT');
    const email = uniqueEmail('boss');
    const invited = await admin.client.post('/_api/settings/users/invite', { email, role: 'admin', mfaToken: people });
    expect(invited.statusCode, invited.body).toBe(200);
    expect(invited.json().invitation).toMatchObject({ email, role: 'admin' });
  });

  it('a switch of method takes a code of the current factor: no step-up token serves, own-mfa or any other', async () => {
    const admin = await newOrganizationWithTotp(t, 'Own Switch LLP');
    const { secret } = ok(await admin.client.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' }));
    for (const operation of ['MFA_SETTINGS', 'MFA_USER_MANAGEMENT']) {
      const token = await tokenFor(admin, operation);
      const refused = await admin.client.post('/_api/settings/mfa-manage', {
        operation: 'switch_to_totp',
        totpToken: currentTotp(secret),
        mfaToken: token,
      });
      expect(refused.statusCode, operation).toBe(401);
      expect(refused.json().code).toBe('MFA_INVALID');
    }
    const own = await tokenFor(admin, 'MFA_SETTINGS');
    const toEmail = await admin.client.post('/_api/settings/mfa-manage', { operation: 'switch_to_email', mfaToken: own });
    expect(toEmail.statusCode).toBe(400);
    expect((await auditActions(t, admin.organizationId)).filter((a) => a.action === 'MFA_EMAIL_ENABLED')).toHaveLength(0);

    // The current authenticator's own code makes the switch.
    const switched = await admin.client.post('/_api/settings/mfa-manage', {
      operation: 'switch_to_totp',
      totpToken: currentTotp(secret),
      mfaToken: await code(admin),
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json()).toMatchObject({ mfaEnabled: true, mfaPrimaryMethod: 'totp' });
  });
});
