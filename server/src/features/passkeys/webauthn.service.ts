import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  MAIL,
  PASSKEY_LIMITS,
  type PasskeyAuthenticationResponse,
  type PasskeyOptionsResponse,
  type PasskeyRegistrationResponse,
} from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import { findUserById, type UserRow } from '../users/index.js';
import {
  consumeChallenge,
  insertChallenge,
  listUserPasskeys,
  lockLiveChallenge,
  lockPasskeyByCredentialId,
  recordPasskeyUse,
  type ChallengePurpose,
  type PasskeyRow,
} from './passkeys.repository.js';

/**
 * The relying party is the installation's own address (APP_URL): its host name is the rpID a credential is bound
 * to, its origin the only origin a browser's answer may come from.
 */
function relyingParty(ctx: AppContext) {
  const url = new URL(ctx.config.appUrl);
  return { rpID: url.hostname, origin: url.origin, rpName: 'Strongroom' };
}

const expiry = () => new Date(Date.now() + PASSKEY_LIMITS.challengeMinutes * 60_000);

/** The challenge a browser's answer signed, read from its clientDataJSON (undefined when unreadable). */
function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 512 ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

/** The user handle of a person's credentials: their row id, which names nobody outside Strongroom. */
const userHandle = (user: UserRow) => new TextEncoder().encode(`strongroom-user-${user.id}`);

/** Options to create a passkey (discoverable, user verification required), the person's passkeys excluded. */
export async function registrationOptions(ctx: AppContext, user: UserRow, sessionId: string) {
  const rp = relyingParty(ctx);
  const existing = await listUserPasskeys(ctx.db, user.organizationId, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.fullName,
    userID: userHandle(user),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  await insertChallenge(ctx.db, {
    organizationId: user.organizationId,
    userId: user.id,
    sessionId,
    purpose: 'register',
    operation: null,
    challenge: options.challenge,
    expiresAt: expiry(),
  });
  return { ...options } as PasskeyOptionsResponse;
}

export type VerifiedRegistration = {
  challengeId: string;
  credentialId: string;
  publicKey: Buffer;
  signCount: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  backupEligible: boolean;
};

/**
 * Checks a registration answer against its live challenge (this person's, this session's), the origin and the
 * rpID, with user verification required. Answers undefined when anything fails. The challenge is not consumed
 * here: the caller consumes it (consumeRegistrationChallenge) in the transaction that stores the passkey.
 */
export async function verifyRegistration(
  ctx: AppContext,
  user: UserRow,
  sessionId: string,
  response: PasskeyRegistrationResponse,
): Promise<VerifiedRegistration | undefined> {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!challenge) return undefined;
  const row = await ctx.db.transaction().execute((trx) => lockLiveChallenge(trx, challenge, 'register'));
  if (!row || row.userId !== user.id || row.organizationId !== user.organizationId || row.sessionId !== sessionId) return undefined;
  const rp = relyingParty(ctx);
  try {
    const result = await verifyRegistrationResponse({
      response: { ...response, clientExtensionResults: response.clientExtensionResults ?? {} },
      expectedChallenge: row.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
    if (!result.verified) return undefined;
    const info = result.registrationInfo;
    return {
      challengeId: row.id,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey),
      signCount: info.credential.counter,
      transports: (response.response.transports ?? []).slice(0, 10),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      // multiDevice is the authenticator's backup-eligible flag.
      backupEligible: info.credentialDeviceType === 'multiDevice',
    };
  } catch {
    return undefined;
  }
}

/** Consumes a registration's challenge; false when another request consumed it first. */
export async function consumeRegistrationChallenge(trx: Executor, challengeId: string, challenge: string): Promise<boolean> {
  const row = await lockLiveChallenge(trx, challenge, 'register');
  if (!row || row.id !== challengeId) return false;
  await consumeChallenge(trx, row.id);
  return true;
}

/** The challenge of a registration answer (to consume it). */
export const registrationChallengeOf = (response: PasskeyRegistrationResponse) => challengeOf(response.response.clientDataJSON) ?? '';

/**
 * Options to prove possession of a passkey with user verification. A second factor or a step-up names the
 * person's passkeys; a passwordless sign-in names none, so the browser offers the discoverable ones it holds.
 */
export async function assertionOptions(
  ctx: AppContext,
  ceremony:
    | { purpose: 'second-factor'; user: UserRow }
    | { purpose: 'step-up'; user: UserRow; sessionId: string; operation: string }
    | { purpose: 'sign-in' },
  passkeys: PasskeyRow[] = [],
) {
  const rp = relyingParty(ctx);
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    userVerification: 'required',
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
  });
  const user = 'user' in ceremony ? ceremony.user : null;
  await insertChallenge(ctx.db, {
    organizationId: user?.organizationId ?? null,
    userId: user?.id ?? null,
    sessionId: ceremony.purpose === 'step-up' ? ceremony.sessionId : null,
    purpose: ceremony.purpose,
    operation: ceremony.purpose === 'step-up' ? ceremony.operation : null,
    challenge: options.challenge,
    expiresAt: expiry(),
  });
  return { ...options } as PasskeyOptionsResponse;
}

export type AssertionOutcome =
  | { ok: true; passkey: PasskeyRow }
  /** 'clone': the counter did not go forward; the row is untouched and the person is to be told (tellCloneSuspected). */
  | { ok: false; why: 'invalid' | 'clone'; passkey?: PasskeyRow };

/**
 * Checks an assertion inside the caller's transaction: its challenge must be live and of this ceremony (the same
 * person, session and operation), and it is consumed here whatever the verdict, so an answer is never replayed
 * and a failed one is not tried again; the credential must be the expected person's (any person's for a
 * passwordless sign-in); the origin, rpID, signature and user verification must hold. A counter that does not go
 * forward (when either is non-zero) marks a cloned credential: refused, audited, the row left as it was. A verified
 * use records the counter and the backup flags.
 */
export async function verifyAssertion(
  ctx: AppContext,
  trx: Executor,
  ceremony: { purpose: Exclude<ChallengePurpose, 'register'>; user: UserRow | null; sessionId?: string; operation?: string },
  response: PasskeyAuthenticationResponse,
  meta: { ip: string | null },
): Promise<AssertionOutcome> {
  const challenge = challengeOf(response.response.clientDataJSON);
  const row = challenge ? await lockLiveChallenge(trx, challenge, ceremony.purpose) : undefined;
  if (!row) return { ok: false, why: 'invalid' };
  await consumeChallenge(trx, row.id);
  const { user } = ceremony;
  if (user && (row.userId !== user.id || row.organizationId !== user.organizationId)) return { ok: false, why: 'invalid' };
  if (ceremony.purpose === 'step-up' && (row.sessionId !== ceremony.sessionId || row.operation !== ceremony.operation))
    return { ok: false, why: 'invalid' };
  const passkey = await lockPasskeyByCredentialId(trx, response.id);
  if (!passkey || (user && (passkey.userId !== user.id || passkey.organizationId !== user.organizationId)))
    return { ok: false, why: 'invalid' };
  const rp = relyingParty(ctx);
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response: { ...response, clientExtensionResults: response.clientExtensionResults ?? {} },
      expectedChallenge: row.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
      // The counter is judged below, so that a clone is told apart from a bad signature.
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: 0, transports: passkey.transports },
    });
  } catch {
    return { ok: false, why: 'invalid', passkey };
  }
  if (!verified.verified) return { ok: false, why: 'invalid', passkey };
  const stored = BigInt(passkey.signCount);
  const next = BigInt(verified.authenticationInfo.newCounter);
  if ((stored > 0n || next > 0n) && next <= stored) {
    // Written as the passkey's owner's entry, so the owner's audit trail shows it.
    const owner = user ?? (await findUserById(trx, passkey.userId));
    await auditFor(owner ?? { organizationId: passkey.organizationId, actor: null }, meta)(
      trx,
      'PASSKEY_CLONE_SUSPECTED',
      { table: 'passkeys', id: passkey.id },
      { passkeyId: passkey.id, name: passkey.name, userId: passkey.userId, storedCounter: passkey.signCount, givenCounter: String(next) },
    );
    return { ok: false, why: 'clone', passkey };
  }
  await recordPasskeyUse(trx, passkey.organizationId, passkey.id, {
    signCount: verified.authenticationInfo.newCounter,
    deviceType: verified.authenticationInfo.credentialDeviceType,
    backedUp: verified.authenticationInfo.credentialBackedUp,
  });
  return { ok: true, passkey };
}

/** Mails the owner of a refused passkey whose counter went back (a failure to send is logged, not thrown). */
export async function tellCloneSuspected(ctx: AppContext, email: string, passkey: PasskeyRow): Promise<void> {
  try {
    await ctx.mailer.send({ to: email, ...MAIL.passkeyCloneSuspected({ name: passkey.name }) });
  } catch (err) {
    ctx.log.error({ err: (err as Error).message, passkeyId: passkey.id }, 'sending the passkey clone notice failed');
  }
}
