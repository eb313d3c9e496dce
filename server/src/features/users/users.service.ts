import { hash, verify } from '@node-rs/argon2';
import type { SessionUser } from '@strongroom/contracts';
import type { OrganizationRow, UserRow } from './users.repository.js';

// Other features reach users and organizations through this module: the row types and the small reads and writes
// they run inside their own transactions. The repository stays private to this feature.
export type { OrganizationRow, UserRow } from './users.repository.js';
export {
  countOrganizations,
  findOrganization,
  findUserByEmail,
  findUserById,
  insertUser,
  lockUser,
  setTotpState,
  updateUser,
} from './users.repository.js';

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
