/**
 * Vaulting a matter (POST /_api/vault/start) and its signed certificate (GET /_api/vault/certificate). What other
 * features use of the vault: the hold sync after a legal hold changed on a vaulted matter.
 */
import type { VaultDetailQuery, VaultStartRequest, VaultStartResponse } from '@strongroom/contracts';
import { VAULT_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { certificateBytes } from '../../platform/signing.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { conflict } from '../../shared/errors.js';
import { getVisibleMatter, lockVisibleMatter, markMatterVaulted, type MatterRow } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { findVaultCertificate, insertTransfer, matterFileTotals } from './vault.repository.js';
import { requireWriteOnceStore } from './vault-protection.js';
import { enqueueVaultHoldSync, enqueueVaultTransfer } from './vault-transfer.jobs.js';

/** The reason a hold applied by vaulting carries when the matter had none. */
export const AUTOMATIC_HOLD_REASON = 'Applied automatically when the matter was vaulted';

/** A vaulted matter cannot be vaulted again; a matter under legal hold cannot be vaulted. */
function requireVaultable(matter: Pick<MatterRow, 'isVaulted' | 'status' | 'legalHold'>): void {
  if (matter.isVaulted || matter.status === 'Vaulted') throw conflict(VAULT_MSG.alreadyVaulted, { reason: 'VAULTED' });
  if (matter.legalHold) throw conflict(VAULT_MSG.vaultHeld, { reason: 'LEGAL_HOLD' });
}

/** retentionYears calendar years after `from` (29 February lands on 1 March in a year without one). */
function addYears(from: Date, years: number): Date {
  const d = new Date(from.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d;
}

/**
 * Vaults a matter, irreversibly: the matter becomes Vaulted and read-only with its legal hold applied, its
 * retention runs to now + retentionYears, and the durable transfer moves every file into the vault. The business
 * rules are checked first, then that the store enforces write-once (409 otherwise, unless an administrator allowed
 * an unlocked store with VAULT_ALLOW_UNLOCKED_STORE); then a fresh second-factor code is required every time, whatever the feature flags say
 * (the request schema takes 6-digit codes only, so a system MFA token never serves). One transaction: the matter,
 * the transfer's row, VAULT_MATTER and VAULT_TRANSFER_INITIATED, the job. Of two starts at once, the one that
 * locks the matter second finds it vaulted (409).
 */
export async function startVault(
  ctx: AppContext,
  auth: AuthContext,
  input: VaultStartRequest,
  meta: RequestMeta,
): Promise<VaultStartResponse> {
  const { user } = auth;
  requireVaultable(await getVisibleMatter(ctx.db, user, input.matterId));
  // Before any code is asked for or anything written: a store that does not lock what it keeps is refused.
  await requireWriteOnceStore(ctx);
  const vaulted = await auth.stepUp.run(async (trx) => {
    const matter = await lockVisibleMatter(trx, user, input.matterId);
    requireVaultable(matter);
    const vaultedAt = new Date(Math.floor(Date.now()));
    const retentionExpiresAt = addYears(vaultedAt, input.retentionYears);
    const row = await markMatterVaulted(trx, matter, { vaultedAt, retentionExpiresAt, holdReason: AUTOMATIC_HOLD_REASON, userId: user.id });
    if (!row) throw conflict(VAULT_MSG.alreadyVaulted, { reason: 'VAULTED' });
    const totals = await matterFileTotals(trx, user.organizationId, matter.id);
    await insertTransfer(trx, {
      matterId: matter.id,
      organizationId: user.organizationId,
      retentionExpiresAt,
      filesTotal: totals.files,
      bytesTotal: totals.bytes,
      startedAt: vaultedAt,
    });
    const audit = auditFor(user, meta);
    const target = { table: 'matters', id: matter.id };
    await audit(trx, 'VAULT_MATTER', target, {
      matterName: row.matterName,
      retentionYears: input.retentionYears,
      vaultedAt: vaultedAt.toISOString(),
      retentionExpiresAt: retentionExpiresAt.toISOString(),
      legalHold: true,
      holdReason: row.holdReason,
      version: row.version,
    });
    await audit(trx, 'VAULT_TRANSFER_INITIATED', target, { files: totals.files, bytes: totals.bytes });
    await enqueueVaultTransfer(ctx, trx, { organizationId: user.organizationId, matterId: matter.id });
    return { vaultedAt, retentionExpiresAt };
  });
  return {
    message: VAULT_MSG.vaultStarted,
    vaultedAt: vaulted.vaultedAt.toISOString(),
    retentionExpiresAt: vaulted.retentionExpiresAt.toISOString(),
  };
}

/**
 * The matter's signed vault certificate, byte for byte as stored in the vault (canonical JSON): holders of
 * canViewVaulted; another organization's matter answers 404; before the transfer completed, 409.
 */
export async function getVaultCertificate(
  ctx: AppContext,
  auth: AuthContext,
  query: VaultDetailQuery,
): Promise<{ body: Buffer; fileName: string }> {
  const matter = await getVisibleMatter(ctx.db, auth.user, query.matterId);
  if (!matter.isVaulted) throw conflict(VAULT_MSG.notVaulted, { reason: 'NOT_READY' });
  const row = await findVaultCertificate(ctx.db, auth.user.organizationId, matter.id);
  if (!row) throw conflict(VAULT_MSG.certificateNotReady, { reason: 'NOT_READY' });
  return { body: certificateBytes(row.body), fileName: `vault-certificate-${matter.id}.json` };
}

/** After a legal hold changed on a vaulted matter: the vault objects' holds follow it (a durable job). */
export async function followMatterHold(ctx: AppContext, trx: Executor, organizationId: string, matterId: string): Promise<void> {
  await enqueueVaultHoldSync(ctx, trx, { organizationId, matterId });
}
