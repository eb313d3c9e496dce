// The users feature owns the users and organizations tables; other features reach them through this file only.

// Row types, reads and the signed-in user as the client sees it (auth, sessions, matters, mfa, setup, the CLI).
export {
  countOrganizations,
  findOrganization,
  findUserByEmail,
  findUserById,
  mfaSetupRequired,
  toSessionUser,
  type OrganizationRow,
  type UserRow,
} from './users.service.js';
// Passwords: the hash kept and its constant-time check (auth, invitations, setup).
export { hashPassword, verifyPassword } from './users.service.js';
// A user's own row: created (setup, invitations), locked and changed (sign-in, MFA, password change, settings).
export { insertUser, lockProfile, lockUser, saveProfile, setTotpState, updateUser } from './users.service.js';
// A member changed by an administrator under the organization's lock (team).
export { changeMemberAccess, clearMemberAuthenticator, lockMember, type LockedMember, type MemberChanges } from './users.service.js';
// The organization: created (setup), locked (team, feature flags), its settings (settings) and quota (uploads).
export {
  createOrganization,
  lockOrganization,
  lockOrganizationSettings,
  organizationQuota,
  saveOrganizationSettings,
} from './users.service.js';
