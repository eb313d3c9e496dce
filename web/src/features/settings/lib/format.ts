import type { MfaMethod, Role } from '@strongroom/contracts';

/** How a role reads on screen. */
export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', user: 'User', guest: 'Guest' };

/** How a second factor reads on screen. */
export const MFA_METHOD_LABELS: Record<MfaMethod, string> = { totp: 'Authenticator App', email: 'Email' };
