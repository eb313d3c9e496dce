export { JobQueue } from './job-queue.js';
export { sweepInBatches } from './sweep.js';
