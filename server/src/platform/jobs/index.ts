export { JobQueue } from './job-queue.js';
export type { JobDefinition, JobMeta, JobQueueOptions, JobRunnerMode, RunResult } from './job-queue.js';
