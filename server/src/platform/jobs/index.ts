export { JobQueue } from './job-queue.js';
