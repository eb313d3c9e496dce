import type {
  OrganizationSettingsResponse,
  ProfileResponse,
  RetentionSettingsResponse,
  UpdateOrganizationRequest,
  UpdateOrganizationResponse,
  UpdateProfileRequest,
  UpdateProfileResponse,
  UpdateRetentionRequest,
  UpdateRetentionResponse,
} from '@strongroom/contracts';
import { MAIL, SETTINGS_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { conflict, notFound } from '../../shared/errors.js';
import { isUniqueViolation } from '../../shared/unique-violation.js';
import { remainingRecoveryCodes } from '../mfa/index.js';
import type { AuthContext } from '../sessions/index.js';
import { lockOrganizationSettings, lockProfile, saveOrganizationSettings, saveProfile } from '../users/index.js';
import { findOrganizationSettings, findOtherUserWithEmail } from './settings.repository.js';

// ---- Profile -------------------------------------------------------------------------------------------

async function profileOf(ctx: AppContext, auth: AuthContext, values?: { fullName: string; email: string; phoneNumber: string | null }) {
  const u = auth.user;
  return {
    fullName: values?.fullName ?? u.fullName,
    email: values?.email ?? u.email,
    phoneNumber: values ? values.phoneNumber : u.phoneNumber,
    role: u.role,
    mfaEnabled: u.mfaEnabled,
    mfaPrimaryMethod: u.mfaPrimaryMethod,
    recoveryCodesRemaining: u.mfaPrimaryMethod === 'totp' ? await remainingRecoveryCodes(ctx.db, u.id) : 0,
  } satisfies ProfileResponse;
}

/** GET /_api/settings/profile: everyone's own profile, guests included. */
export function getProfile(ctx: AppContext, auth: AuthContext): Promise<ProfileResponse> {
  return profileOf(ctx, auth);
}

const emailTaken = () => conflict(SETTINGS_MSG.emailTaken, { reason: 'EMAIL_TAKEN', field: 'email' });

/**
 * POST /_api/settings/profile. Name and phone change at once. The email address is where verification codes and
 * password resets go, so changing it takes a fresh MFA code (whoever holds an open session must still prove the
 * second factor) and the old address is told; an address another account holds is refused with 409 EMAIL_TAKEN
 * before any code is asked for. Audited as UPDATE_PROFILE with the values before and after.
 */
export async function updateProfile(
  ctx: AppContext,
  auth: AuthContext,
  input: UpdateProfileRequest,
  meta: RequestMeta,
): Promise<UpdateProfileResponse> {
  const user = auth.user;
  const after = { fullName: input.fullName, email: input.email.toLowerCase(), phoneNumber: input.phoneNumber ? input.phoneNumber : null };
  const emailChanged = after.email !== user.email.toLowerCase();
  if (emailChanged && (await findOtherUserWithEmail(ctx.db, after.email, user.id)) !== undefined) throw emailTaken();
  const change = async (trx: Executor) => {
    const before = await lockProfile(trx, user.organizationId, user.id);
    if (!before) throw notFound();
    const same = before.fullName === after.fullName && before.email === after.email && before.phoneNumber === after.phoneNumber;
    if (same) return false;
    if (emailChanged && (await findOtherUserWithEmail(trx, after.email, user.id)) !== undefined) throw emailTaken();
    await saveProfile(trx, user.organizationId, user.id, after);
    await auditFor(user, meta)(
      trx,
      'UPDATE_PROFILE',
      { table: 'users', id: user.id },
      { before: { fullName: before.fullName, email: before.email, phoneNumber: before.phoneNumber }, after },
    );
    return true;
  };
  let changed: boolean;
  try {
    changed = await auth.stepUp.run(change);
  } catch (err) {
    // Two accounts racing for one address: the unique index decides, and the loser hears the same 409.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  if (changed && emailChanged) {
    try {
      await ctx.mailer.send({ to: user.email, ...MAIL.emailChanged({ newEmail: after.email }) });
    } catch (err) {
      ctx.log.error({ err: (err as Error).message, userId: user.id }, 'sending the email-change notice failed');
    }
  }
  return { success: true, message: SETTINGS_MSG.profileUpdated, profile: await profileOf(ctx, auth, after) };
}

// ---- Organization --------------------------------------------------------------------------------------

async function organizationOf(ctx: AppContext, auth: AuthContext): Promise<OrganizationSettingsResponse> {
  const org = await findOrganizationSettings(ctx.db, auth.user.organizationId);
  if (!org) throw notFound();
  return {
    organizationId: org.id,
    name: org.name,
    primaryContactName: org.primaryContactName,
    primaryContactEmail: org.primaryContactEmail,
    primaryContactPhone: org.primaryContactPhone,
    canEdit: auth.user.role === 'admin',
  };
}

/** GET /_api/settings/organization: admins and users read the firm's details; guests see nothing of it. */
export function getOrganization(ctx: AppContext, auth: AuthContext): Promise<OrganizationSettingsResponse> {
  return organizationOf(ctx, auth);
}

/** POST /_api/settings/organization: admins; a fresh code while MFA_ORGANIZATION_SETTINGS is on; UPDATE_ORG_INFO audited. */
export async function updateOrganization(
  ctx: AppContext,
  auth: AuthContext,
  input: UpdateOrganizationRequest,
  meta: RequestMeta,
): Promise<UpdateOrganizationResponse> {
  const orgId = auth.user.organizationId;
  const { mfaToken: _mfaToken, ...after } = input;
  await auth.stepUp.run(async (trx) => {
    const org = await lockOrganizationSettings(trx, orgId);
    if (!org) throw notFound();
    const before = {
      name: org.name,
      primaryContactName: org.primaryContactName,
      primaryContactEmail: org.primaryContactEmail,
      primaryContactPhone: org.primaryContactPhone,
    };
    await saveOrganizationSettings(trx, orgId, after);
    await auditFor(auth.user, meta)(trx, 'UPDATE_ORG_INFO', { table: 'organizations', id: orgId }, { before, after });
  });
  return { success: true, message: SETTINGS_MSG.organizationUpdated, organization: await organizationOf(ctx, auth) };
}

// ---- Retention and vault configuration -----------------------------------------------------------------

/**
 * GET /_api/settings/retention: admins and users (the vault dialog's default comes from here). The vault
 * configuration is reported as it is: COMPLIANCE mode, MFA always required to vault, and whether the configured
 * store really enforces write-once.
 */
export async function getRetention(ctx: AppContext, auth: AuthContext): Promise<RetentionSettingsResponse> {
  const org = await findOrganizationSettings(ctx.db, auth.user.organizationId);
  if (!org) throw notFound();
  const writeOnce = await ctx.store.writeOnceStatus();
  return {
    defaultRetentionYears: org.defaultRetentionYears,
    binRetentionDays: org.binRetentionDays,
    canEdit: auth.user.role === 'admin',
    vaultConfiguration: { objectLockMode: 'COMPLIANCE', mfaForVaulting: 'Required', writeOnce },
  };
}

/** POST /_api/settings/retention: admins; a fresh code while MFA_RETENTION_POLICIES is on; UPDATE_RETENTION audited. */
export async function updateRetention(
  auth: AuthContext,
  input: UpdateRetentionRequest,
  meta: RequestMeta,
): Promise<UpdateRetentionResponse> {
  const orgId = auth.user.organizationId;
  const binRetentionDays = await auth.stepUp.run(async (trx) => {
    const org = await lockOrganizationSettings(trx, orgId);
    if (!org) throw notFound();
    // The bin's days are left as they are when the request leaves them out.
    const after = { defaultRetentionYears: input.defaultRetentionYears, binRetentionDays: input.binRetentionDays ?? org.binRetentionDays };
    await saveOrganizationSettings(trx, orgId, after);
    await auditFor(auth.user, meta)(
      trx,
      'UPDATE_RETENTION',
      { table: 'organizations', id: orgId },
      { before: { defaultRetentionYears: org.defaultRetentionYears, binRetentionDays: org.binRetentionDays }, after },
    );
    return after.binRetentionDays;
  });
  return { success: true, message: SETTINGS_MSG.retentionUpdated, defaultRetentionYears: input.defaultRetentionYears, binRetentionDays };
}
