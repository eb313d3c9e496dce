/**
 * Applying and removing a matter's legal hold (POST /_api/matters/legal-hold), by administrators (the route's rule). A held matter takes
 * no changes and cannot be vaulted. On a vaulted matter the hold may be removed (the matter stays vaulted and
 * read-only: that is what lets its retention end) and applied again; its vault objects' holds follow the
 * matter's through a durable job.
 */
import type { LegalHoldRequest, LegalHoldResponse } from '@strongroom/contracts';
import { VAULT_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { conflict } from '../../shared/errors.js';
import { getVisibleMatter, lockVisibleMatter, setMatterHold, toMatterDto, type MatterRow } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { followMatterHold } from '../vault/index.js';

/** Applying a hold that is on, or removing one that is off, is refused with a clear word (409). */
function requireChange(matter: Pick<MatterRow, 'legalHold'>, action: LegalHoldRequest['action']): void {
  if (action === 'apply' && matter.legalHold) throw conflict(VAULT_MSG.holdAlreadyApplied, { reason: 'LEGAL_HOLD' });
  if (action === 'remove' && !matter.legalHold) throw conflict(VAULT_MSG.holdNotApplied, { reason: 'NOT_HELD' });
}

/**
 * Applies or removes the hold, with its reason, in one transaction with APPLY_LEGAL_HOLD / REMOVE_LEGAL_HOLD.
 * The rules are checked before any code is asked for; with the organization's MFA_VAULT_OPERATIONS flag on, a
 * fresh second-factor code of the admin's method is required (401 MFA_REQUIRED until it comes in mfaToken).
 */
export async function changeLegalHold(
  ctx: AppContext,
  auth: AuthContext,
  input: LegalHoldRequest,
  meta: RequestMeta,
): Promise<LegalHoldResponse> {
  const { user } = auth;
  requireChange(await getVisibleMatter(ctx.db, user, input.matterId), input.action);

  const change = async (trx: Executor) => {
    const matter = await lockVisibleMatter(trx, user, input.matterId);
    requireChange(matter, input.action);
    return setHoldLocked(ctx, trx, user, matter, { apply: input.action === 'apply', reason: input.reason ?? null }, meta);
  };
  const updated = await auth.stepUp.run(change);
  return { matter: toMatterDto(updated), message: input.action === 'apply' ? VAULT_MSG.holdApplied : VAULT_MSG.holdRemoved };
}

/**
 * Applies or removes the hold of a matter the caller has locked (and checked: visible, the hold not already as
 * asked), with its audit entry, and has the vault objects' holds follow it; the caller's transaction. The legal-hold
 * route and the disposition review's 'hold' decision both change a hold through this.
 */
export async function setHoldLocked(
  ctx: AppContext,
  trx: Executor,
  user: AuthContext['user'],
  matter: MatterRow,
  change: { apply: boolean; reason: string | null },
  meta: RequestMeta,
): Promise<MatterRow> {
  const { apply, reason } = change;
  const updated = await setMatterHold(trx, matter, { legalHold: apply, holdReason: apply ? reason : null, userId: user.id });
  await auditFor(user, meta)(
    trx,
    apply ? 'APPLY_LEGAL_HOLD' : 'REMOVE_LEGAL_HOLD',
    { table: 'matters', id: matter.id },
    {
      matterName: matter.matterName,
      reason,
      ...(apply ? {} : { previousReason: matter.holdReason }),
      vaulted: matter.isVaulted,
      version: updated.version,
    },
  );
  if (matter.isVaulted) await followMatterHold(ctx, trx, user.organizationId, matter.id);
  return updated;
}
