import type { AppContext } from '../../shared/context.js';
import { ARCHIVE_RETRIEVAL_JOB, runRetrieval, type RetrievalJob } from './archival-retrieval.service.js';
import { ARCHIVE_RUN_JOB, ARCHIVE_RUN_RETRY_LIMIT, runArchivalJob, type ArchiveRunJob } from './archival-runs.service.js';

/**
 * The retrieval of an archived audit entry's details: reads its batch back, checks it, caches the details.
 * An archival run: archives the run's entries batch by batch, resuming where a stopped attempt left off.
 */
export function defineArchivalJobs(ctx: AppContext): void {
  ctx.jobs.define<RetrievalJob>({
    name: ARCHIVE_RETRIEVAL_JOB,
    handler: (data) => runRetrieval(ctx, data),
    pollingIntervalSeconds: 5,
    expireInSeconds: 15 * 60,
    retryLimit: 5,
    retryDelaySeconds: 30,
  });
  ctx.jobs.define<ArchiveRunJob>({
    name: ARCHIVE_RUN_JOB,
    handler: (data, meta) => runArchivalJob(ctx, data, meta),
    pollingIntervalSeconds: 2,
    // A million entries take minutes; an hour bounds one attempt.
    expireInSeconds: 3600,
    retryLimit: ARCHIVE_RUN_RETRY_LIMIT,
    retryDelaySeconds: 5,
    // A repeated batch only reuses its object: a short heartbeat resumes a run promptly after its process died.
    heartbeatSeconds: 15,
  });
}
