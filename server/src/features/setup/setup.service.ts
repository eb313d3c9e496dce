import { DEFAULT_PERMISSIONS, MSG } from '@strongroom/contracts';
import type { Database, Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, conflict } from '../../shared/errors.js';
import { hashToken, newToken, safeEqualHex } from '../../shared/tokens.js';
import { insertDefaultFlags } from '../feature-flags/index.js';
import { countOrganizations, createOrganization as insertOrganization, findUserByEmail, hashPassword, insertUser } from '../users/index.js';
import { deleteSetupTokenHash, findSetupTokenHash, lockOrganizationSetup, saveSetupTokenHash } from './setup.repository.js';

export type NewOrganization = { name: string; adminName: string; adminEmail: string; adminPassword: string };

/** Creates an organization with its first administrator (CLI and /setup). */
async function createOrganization(trx: Executor, input: NewOrganization, meta: RequestMeta | null, via: 'cli' | 'setup') {
  if (await findUserByEmail(trx, input.adminEmail))
    throw conflict(MSG.invitationAccountExists, { reason: 'ACCOUNT_EXISTS', field: 'adminEmail' });
  const passwordHash = await hashPassword(input.adminPassword);
  const org = await insertOrganization(trx, {
    name: input.name.trim(),
    primaryContactName: input.adminName.trim(),
    primaryContactEmail: input.adminEmail.trim().toLowerCase(),
  });
  await insertDefaultFlags(trx, org.id);
  const admin = await insertUser(trx, {
    organizationId: org.id,
    email: input.adminEmail.trim().toLowerCase(),
    fullName: input.adminName.trim(),
    passwordHash,
    role: 'admin',
    permissions: DEFAULT_PERMISSIONS.admin,
  });
  await auditFor(admin, meta)(trx, 'ORGANIZATION_CREATED', { table: 'organizations', id: org.id }, { name: org.name, via });
  return { organizationId: org.id, userId: admin.id };
}

export async function needsSetup(db: Executor): Promise<boolean> {
  return (await countOrganizations(db)) === 0;
}

/**
 * While no organization exists the server makes a one-time setup token, keeps its hash and prints it at
 * start. SETUP_TOKEN in the environment takes its place for unattended installs.
 */
export async function prepareSetupToken(ctx: AppContext): Promise<string | null> {
  if (!(await needsSetup(ctx.db))) return null;
  if (ctx.config.setupToken) return null;
  const token = newToken();
  await saveSetupTokenHash(ctx.db, hashToken(token));
  return token;
}

async function setupTokenValid(ctx: AppContext, trx: Executor, token: string): Promise<boolean> {
  if (ctx.config.setupToken) return safeEqualHex(hashToken(ctx.config.setupToken), hashToken(token));
  const stored = await findSetupTokenHash(trx);
  return stored !== null && safeEqualHex(stored, hashToken(token));
}

export async function runSetup(ctx: AppContext, input: { setupToken: string } & NewOrganization, meta: RequestMeta) {
  return ctx.db.transaction().execute(async (trx) => {
    // Two setup requests at once must not make two organizations.
    await lockOrganizationSetup(trx);
    if (!(await needsSetup(trx))) throw conflict(MSG.setupDone, { reason: 'ALREADY_SET_UP' });
    if (!(await setupTokenValid(ctx, trx, input.setupToken))) throw new AppError(403, MSG.setupTokenInvalid, 'PERMISSION_ERROR');
    const result = await createOrganization(trx, input, meta, 'setup');
    await deleteSetupTokenHash(trx);
    return result;
  });
}

export async function createOrganizationFromCli(db: Database, input: NewOrganization) {
  return db.transaction().execute(async (trx) => {
    await lockOrganizationSetup(trx);
    const result = await createOrganization(trx, input, null, 'cli');
    await deleteSetupTokenHash(trx);
    return result;
  });
}
