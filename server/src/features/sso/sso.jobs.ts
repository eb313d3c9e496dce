import { sweepInBatches } from '../../platform/jobs/index.js';
import type { AppContext } from '../../shared/context.js';
import { deleteDeadLoginStates } from './sso.repository.js';

/**
 * sso-state-sweep, hourly: a sign-in started at the provider and never finished leaves its state (with the nonce
 * and PKCE verifier) behind; once past its time it can never be spent, so it is deleted. The sign-in itself, when
 * it happened, is in the audit log.
 */
export const SSO_STATE_SWEEP_JOB = 'sso-state-sweep';

export function defineSsoJobs(ctx: AppContext): void {
  ctx.jobs.define({
    name: SSO_STATE_SWEEP_JOB,
    handler: async () => {
      const now = new Date();
      await sweepInBatches((limit) => deleteDeadLoginStates(ctx.db, now, limit));
    },
    cron: '37 * * * *',
    pollingIntervalSeconds: 60,
  });
}
