import { sweepInBatches } from '../../platform/jobs/index.js';
import type { AppContext } from '../../shared/context.js';
import { deleteDeadChallenges } from './passkeys.repository.js';

/**
 * webauthn-challenge-sweep, hourly: every passkey ceremony stores a single-use challenge that lives minutes; once
 * past its time it can never be answered, so it is deleted, used or not.
 */
export const WEBAUTHN_CHALLENGE_SWEEP_JOB = 'webauthn-challenge-sweep';

export function definePasskeyJobs(ctx: AppContext): void {
  ctx.jobs.define({
    name: WEBAUTHN_CHALLENGE_SWEEP_JOB,
    handler: async () => {
      const now = new Date();
      await sweepInBatches((limit) => deleteDeadChallenges(ctx.db, now, limit));
    },
    cron: '39 * * * *',
    pollingIntervalSeconds: 60,
  });
}
