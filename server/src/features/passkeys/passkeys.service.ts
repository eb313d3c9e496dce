import {
  MAIL,
  PASSKEY_LIMITS,
  PASSKEY_MSG,
  type Passkey,
  type PasskeyChangeResponse,
  type PasskeyPolicyResponse,
  type PasskeysResponse,
  type RegisterPasskeyRequest,
  type RemovePasskeyRequest,
  type RemovePasskeyResponse,
  type RenamePasskeyRequest,
  type UpdatePasskeyPolicyRequest,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, conflict, notFound } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import { lockUser, type UserRow } from '../users/index.js';
import {
  countUserPasskeys,
  credentialIdTaken,
  deletePasskeyRow,
  insertPasskey,
  listUserPasskeys,
  lockUserPasskey,
  passkeySignInAllowed,
  renamePasskeyRow,
  setPasskeySignIn,
  type PasskeyRow,
} from './passkeys.repository.js';
import { consumeRegistrationChallenge, registrationChallengeOf, registrationOptions, verifyRegistration } from './webauthn.service.js';

function toDto(r: PasskeyRow): Passkey {
  return {
    passkeyId: r.id,
    name: r.name,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    deviceType: r.deviceType === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    backedUp: r.backedUp,
  };
}

/** GET /_api/settings/passkeys: one's own passkeys (never anyone else's, administrators included). */
export async function listPasskeys(ctx: AppContext, auth: AuthContext): Promise<PasskeysResponse> {
  const { user } = auth;
  const rows = await listUserPasskeys(ctx.db, user.organizationId, user.id);
  return { passkeys: rows.map(toDto), allowPasskeySignIn: await passkeySignInAllowed(ctx.db, user.organizationId) };
}

/** POST /_api/settings/passkeys/registration-options: a challenge bound to this person and session. */
export async function passkeyRegistrationOptions(ctx: AppContext, auth: AuthContext) {
  if ((await countUserPasskeys(ctx.db, auth.user.organizationId, auth.user.id)) >= PASSKEY_LIMITS.perUserMax)
    throw conflict(PASSKEY_MSG.tooMany);
  return registrationOptions(ctx, auth.user, auth.session.id);
}

/**
 * POST /_api/settings/passkeys: the browser's answer is verified first (its challenge, origin, rpID, user
 * verification), then, behind a fresh code of the person's second factor, the challenge is consumed, the passkey
 * stored and audited in one transaction; the person is mailed that a passkey was added.
 */
export async function registerPasskey(
  ctx: AppContext,
  auth: AuthContext,
  input: RegisterPasskeyRequest,
  meta: RequestMeta,
): Promise<PasskeyChangeResponse> {
  const { user } = auth;
  const verified = await verifyRegistration(ctx, user, auth.session.id, input.response);
  if (!verified) throw badRequest(PASSKEY_MSG.verificationFailed);
  if (await credentialIdTaken(ctx.db, verified.credentialId)) throw conflict(PASSKEY_MSG.alreadyRegistered);
  const id = await auth.stepUp.run(async (trx) => {
    await lockUser(trx, user.id);
    if (!(await consumeRegistrationChallenge(trx, verified.challengeId, registrationChallengeOf(input.response))))
      throw badRequest(PASSKEY_MSG.verificationFailed);
    if ((await countUserPasskeys(trx, user.organizationId, user.id)) >= PASSKEY_LIMITS.perUserMax) throw conflict(PASSKEY_MSG.tooMany);
    if (await credentialIdTaken(trx, verified.credentialId)) throw conflict(PASSKEY_MSG.alreadyRegistered);
    const passkeyId = await insertPasskey(trx, {
      organizationId: user.organizationId,
      userId: user.id,
      credentialId: verified.credentialId,
      publicKey: verified.publicKey,
      signCount: verified.signCount,
      transports: verified.transports,
      deviceType: verified.deviceType,
      backedUp: verified.backedUp,
      backupEligible: verified.backupEligible,
      name: input.name,
    });
    await auditFor(user, meta)(
      trx,
      'PASSKEY_REGISTERED',
      { table: 'passkeys', id: passkeyId },
      { passkeyId, name: input.name, deviceType: verified.deviceType, backedUp: verified.backedUp },
    );
    return passkeyId;
  });
  await tellPasskeyAdded(ctx, user, input.name);
  return { success: true, message: PASSKEY_MSG.registered, passkey: await ownPasskey(ctx, user, id) };
}

async function tellPasskeyAdded(ctx: AppContext, user: UserRow, name: string): Promise<void> {
  try {
    await ctx.mailer.send({ to: user.email, ...MAIL.passkeyAdded({ name }) });
  } catch (err) {
    ctx.log.error({ err: (err as Error).message, userId: user.id }, 'sending the passkey notice failed');
  }
}

async function ownPasskey(ctx: AppContext, user: UserRow, id: string): Promise<Passkey> {
  const row = (await listUserPasskeys(ctx.db, user.organizationId, user.id)).find((p) => p.id === id);
  if (!row) throw notFound(PASSKEY_MSG.notFound);
  return toDto(row);
}

/** POST /_api/settings/passkeys/rename: one's own passkey; another person's or organization's answers 404. */
export async function renamePasskey(
  ctx: AppContext,
  auth: AuthContext,
  input: RenamePasskeyRequest,
  meta: RequestMeta,
): Promise<PasskeyChangeResponse> {
  const { user } = auth;
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockUserPasskey(trx, user.organizationId, user.id, input.passkeyId);
    if (!row) throw notFound(PASSKEY_MSG.notFound);
    await renamePasskeyRow(trx, user.organizationId, row.id, input.name);
    await auditFor(user, meta)(
      trx,
      'PASSKEY_RENAMED',
      { table: 'passkeys', id: row.id },
      { passkeyId: row.id, from: row.name, name: input.name },
    );
  });
  return { success: true, message: PASSKEY_MSG.renamed, passkey: await ownPasskey(ctx, user, input.passkeyId) };
}

/**
 * POST /_api/settings/passkeys/remove: behind a fresh code. With the last passkey gone the person's code method
 * and recovery codes remain (a passkey is never the only factor).
 */
export async function removePasskey(
  ctx: AppContext,
  auth: AuthContext,
  input: RemovePasskeyRequest,
  meta: RequestMeta,
): Promise<RemovePasskeyResponse> {
  const { user } = auth;
  const exists = (await listUserPasskeys(ctx.db, user.organizationId, user.id)).some((p) => p.id === input.passkeyId);
  if (!exists) throw notFound(PASSKEY_MSG.notFound);
  const remaining = await auth.stepUp.run(async (trx) => {
    const row = await lockUserPasskey(trx, user.organizationId, user.id, input.passkeyId);
    if (!row) throw notFound(PASSKEY_MSG.notFound);
    await deletePasskeyRow(trx, user.organizationId, row.id);
    await auditFor(user, meta)(trx, 'PASSKEY_REMOVED', { table: 'passkeys', id: row.id }, { passkeyId: row.id, name: row.name });
    return countUserPasskeys(trx, user.organizationId, user.id);
  });
  return { success: true, message: PASSKEY_MSG.removed, passkeysRemaining: remaining };
}

export async function passkeyPolicy(ctx: AppContext, auth: AuthContext): Promise<PasskeyPolicyResponse> {
  return { allowPasskeySignIn: await passkeySignInAllowed(ctx.db, auth.user.organizationId) };
}

/** POST /_api/settings/passkeys/policy: administrators, behind a fresh code or an organization-class token. */
export async function updatePasskeyPolicy(
  _ctx: AppContext,
  auth: AuthContext,
  input: UpdatePasskeyPolicyRequest,
  meta: RequestMeta,
): Promise<PasskeyPolicyResponse & { success: true; message: string }> {
  const { user } = auth;
  await auth.stepUp.run(async (trx) => {
    await setPasskeySignIn(trx, user.organizationId, input.allowPasskeySignIn, user.id);
    await auditFor(user, meta)(
      trx,
      'PASSKEY_POLICY_UPDATED',
      { table: 'passkey_settings', id: null },
      { allowPasskeySignIn: input.allowPasskeySignIn },
    );
  });
  return { success: true, message: PASSKEY_MSG.policyUpdated, allowPasskeySignIn: input.allowPasskeySignIn };
}
