import type { AppContext } from '../../shared/context.js';
import { ARCHIVE_RETRIEVAL_JOB, runRetrieval, type RetrievalJob } from './archival-retrieval.service.js';

/** The retrieval of an archived audit entry's details: reads its batch back, checks it, caches the details. */
export function defineArchivalJobs(ctx: AppContext): void {
  ctx.jobs.define<RetrievalJob>({
    name: ARCHIVE_RETRIEVAL_JOB,
    handler: (data) => runRetrieval(ctx, data),
    pollingIntervalSeconds: 5,
    expireInSeconds: 15 * 60,
    retryLimit: 5,
    retryDelaySeconds: 30,
  });
}
