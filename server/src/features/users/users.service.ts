import { hash, verify } from '@node-rs/argon2';
import type { SessionUser } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import * as repo from './users.repository.js';
import type { LockedMember, MemberChanges, OrganizationRow, UserRow } from './users.repository.js';

// The users feature owns the users and organizations tables: every write to them, their row locks and the
// version a member change raises live here. Other features call these operations inside their own transactions;
// the repository stays private to this feature.
export type { LockedMember, MemberChanges, OrganizationRow, UserRow } from './users.repository.js';

// ---- Reading users and organizations -------------------------------------------------------------------

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return repo.findUserByEmail(db, email);
}

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return repo.findUserById(db, id);
}

export function findOrganization(db: Executor, id: string): Promise<OrganizationRow | undefined> {
  return repo.findOrganization(db, id);
}

export function countOrganizations(db: Executor): Promise<number> {
  return repo.countOrganizations(db);
}

// ---- Users: creating, locking and changing one ---------------------------------------------------------

/** Creates a user (the first administrator at setup, an accepted invitation). */
export function insertUser(db: Executor, values: Parameters<typeof repo.insertUser>[1]): Promise<UserRow> {
  return repo.insertUser(db, values);
}

/** Locks the user's row for the rest of the transaction (MFA step counters, password changes). */
export function lockUser(db: Executor, id: number): Promise<UserRow | undefined> {
  return repo.lockUser(db, id);
}

/** Changes the user's own fields (password, MFA state) and answers the row as it is now. */
export function updateUser(db: Executor, id: number, changes: Parameters<typeof repo.updateUser>[2]): Promise<UserRow> {
  return repo.updateUser(db, id, changes);
}

/** Keeps the TOTP state a code check leaves (its step, a secret written back encrypted); updatedAt stays. */
export async function setTotpState(db: Executor, id: number, changes: Parameters<typeof repo.setTotpState>[2]): Promise<void> {
  await repo.setTotpState(db, id, changes);
}

/** The signed-in user's own profile (name, address, phone), locked for the rest of the transaction. */
export function lockProfile(db: Executor, organizationId: string, userId: number) {
  return repo.lockProfile(db, organizationId, userId);
}

/** Saves the signed-in user's own profile; the caller holds the profile's lock. */
export function saveProfile(
  db: Executor,
  organizationId: string,
  userId: number,
  values: Parameters<typeof repo.updateProfile>[3],
): Promise<void> {
  return repo.updateProfile(db, organizationId, userId, values);
}

/** A member of the organization by uuid, locked (after the organization's row) for a change by an administrator. */
export function lockMember(db: Executor, organizationId: string, publicId: string): Promise<LockedMember | undefined> {
  return repo.lockMember(db, organizationId, publicId);
}

/** Changes a member's role, status or permissions and raises the version; the caller holds both locks. */
export function changeMemberAccess(
  db: Executor,
  organizationId: string,
  userId: number,
  changes: MemberChanges,
  changedBy: number,
): Promise<void> {
  return repo.updateMember(db, organizationId, userId, changes, changedBy);
}

/** Removes a member's authenticator (emailed codes from then on) and raises the version. */
export function clearMemberAuthenticator(db: Executor, organizationId: string, userId: number, changedBy: number): Promise<void> {
  return repo.clearAuthenticator(db, organizationId, userId, changedBy);
}

// ---- Organizations: creating, locking and changing one --------------------------------------------------

/** Creates an organization (setup, the admin CLI); the caller serializes creations. */
export function createOrganization(
  db: Executor,
  values: Parameters<typeof repo.insertOrganization>[1],
): Promise<{ id: string; name: string }> {
  return repo.insertOrganization(db, values);
}

/**
 * Locks the organization's row for the rest of the transaction (member changes, flag changes); false when there
 * is no such organization.
 */
export function lockOrganization(db: Executor, organizationId: string): Promise<boolean> {
  return repo.lockOrganization(db, organizationId);
}

/** The organization's settings, locked for the rest of the transaction (one settings change at a time). */
export function lockOrganizationSettings(db: Executor, organizationId: string) {
  return repo.lockOrganizationSettings(db, organizationId);
}

/** Saves the organization's settings (name, contact, default retention); the caller holds the settings lock. */
export function saveOrganizationSettings(
  db: Executor,
  organizationId: string,
  values: Parameters<typeof repo.updateOrganizationSettings>[2],
): Promise<void> {
  return repo.updateOrganizationSettings(db, organizationId, values);
}

/** The organization's own storage quota (null: none of its own), its row locked when `lock` is set. */
export function organizationQuota(db: Executor, organizationId: string, lock = false): Promise<{ storageQuotaBytes: string | null }> {
  return repo.organizationQuota(db, organizationId, lock);
}

/** Sets the organization's own storage quota (null: the server default). */
export function setOrganizationQuota(db: Executor, organizationId: string, bytes: number | null): Promise<void> {
  return repo.setOrganizationQuota(db, organizationId, bytes);
}

// argon2id with the library's defaults (m=19456 KiB, t=2, p=1), OWASP's recommended minimum.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A hash of a random password, verified against when the address is unknown, so both cases take as long.
const DUMMY_HASH = hash('strongroom-timing-equaliser-' + Math.random());

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await DUMMY_HASH, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

export function mfaSetupRequired(user: UserRow, org: OrganizationRow): boolean {
  return org.mfaRequired && !user.mfaEnabled;
}

/** The user as the client sees it: no secrets, with the organization's name and the MFA state. */
export function toSessionUser(user: UserRow, org: OrganizationRow): SessionUser {
  return {
    id: user.id,
    email: user.email,
    displayName: user.fullName,
    profileId: user.publicId,
    organizationId: user.organizationId,
    organizationName: org.name,
    role: user.role,
    status: user.isActive ? 'active' : 'deactivated',
    permissions: user.permissions,
    mfaSetupRequired: mfaSetupRequired(user, org),
    mfaEnabled: user.mfaEnabled,
    mfaPrimaryMethod: user.mfaPrimaryMethod,
  };
}
