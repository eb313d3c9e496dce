import type { IntegrityCheckResponse } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { verifyOrganizationChain } from '../audit/index.js';
import type { AuthContext } from '../sessions/index.js';

/**
 * POST /_api/security/integrity-check (administrators): verifies the organization's whole audit chain (every
 * entry's hash, the links, no gap in the sequence, archived entries through their batches, the newest signed
 * head) and records the outcome as INTEGRITY_CHECK_PASSED or INTEGRITY_CHECK_FAILED with the first breaks.
 */
export async function runIntegrityCheck(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<IntegrityCheckResponse> {
  const organizationId = auth.user.organizationId;
  // The head as it stands is signed first, so the answer says how far the chain is anchored right now.
  const check = await verifyOrganizationChain(ctx, organizationId, { signFirst: true });
  await ctx.db.transaction().execute((trx) =>
    auditFor(auth.user, meta)(
      trx,
      check.isValid ? 'INTEGRITY_CHECK_PASSED' : 'INTEGRITY_CHECK_FAILED',
      { table: 'audit_logs', id: null },
      {
        checkedEntries: check.checkedEntries,
        invalidCount: check.invalidEntries.length,
        firstInvalid: check.invalidEntries.slice(0, 10),
        signedHead: check.signedHead,
        anchor: check.anchor.status,
      },
    ),
  );
  return check;
}
