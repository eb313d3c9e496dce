import type { AppContext } from '../../shared/context.js';
import { deleteDeadLoginStates } from './sso.repository.js';

/**
 * sso-state-sweep, hourly: a sign-in started at the provider and never finished leaves its state (with the nonce
 * and PKCE verifier) behind; once past its time it can never be spent, so it is deleted. The sign-in itself, when
 * it happened, is in the audit log.
 */
export const SSO_STATE_SWEEP_JOB = 'sso-state-sweep';
const BATCH = 1000;

async function sweepLoginStates(ctx: AppContext, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await deleteDeadLoginStates(ctx.db, now, BATCH);
    total += gone;
    if (gone < BATCH) return total;
  }
}

export function defineSsoJobs(ctx: AppContext): void {
  ctx.jobs.define({
    name: SSO_STATE_SWEEP_JOB,
    handler: async () => {
      await sweepLoginStates(ctx);
    },
    cron: '37 * * * *',
    pollingIntervalSeconds: 60,
  });
}
