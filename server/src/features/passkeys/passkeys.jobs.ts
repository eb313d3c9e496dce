import type { AppContext } from '../../shared/context.js';
import { deleteDeadChallenges } from './passkeys.repository.js';

/**
 * webauthn-challenge-sweep, hourly: every passkey ceremony stores a single-use challenge that lives minutes; once
 * past its time it can never be answered, so it is deleted, used or not.
 */
export const WEBAUTHN_CHALLENGE_SWEEP_JOB = 'webauthn-challenge-sweep';
const BATCH = 1000;

async function sweepChallenges(ctx: AppContext, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await deleteDeadChallenges(ctx.db, now, BATCH);
    total += gone;
    if (gone < BATCH) return total;
  }
}

export function definePasskeyJobs(ctx: AppContext): void {
  ctx.jobs.define({
    name: WEBAUTHN_CHALLENGE_SWEEP_JOB,
    handler: async () => {
      await sweepChallenges(ctx);
    },
    cron: '39 * * * *',
    pollingIntervalSeconds: 60,
  });
}
