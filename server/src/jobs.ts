/**
 * Every durable job the product runs, defined on one context. The app process (JOB_RUNNER=embedded) and the
 * worker process (src/worker.ts) both call this, so a job is never known to one and missing from the other.
 */
import { definePasswordResetJobs } from './features/auth/password-reset.service.js';
import { defineBinPurgeJobs } from './features/nodes/bin-purge.jobs.js';
import { defineNodeJobs } from './features/nodes/nodes.jobs.js';
import { defineUploadJobs } from './features/uploads/uploads.jobs.js';
import { defineVaultTransferJobs } from './features/vault/vault-transfer.jobs.js';
import { defineVaultRetentionJobs } from './features/vault/vault-retention.jobs.js';
import { defineVaultVerificationJobs } from './features/vault/vault-verification.jobs.js';
import { defineAuditJobs } from './features/audit/audit.jobs.js';
import { defineArchivalJobs } from './features/archival/archival.jobs.js';
import { defineNotificationJobs } from './features/notifications/index.js';
import { defineDispositionJobs } from './features/disposition/disposition.jobs.js';
import { defineDocumentTextJobs } from './features/search/index.js';
import { defineApprovalJobs } from './features/approvals/index.js';
import { definePasskeyJobs } from './features/passkeys/index.js';
import { defineSsoJobs } from './features/sso/index.js';
import type { AppContext } from './shared/context.js';

export function defineJobs(ctx: AppContext): void {
  defineNodeJobs(ctx);
  defineBinPurgeJobs(ctx);
  definePasswordResetJobs(ctx);
  defineUploadJobs(ctx);
  defineVaultTransferJobs(ctx);
  defineVaultVerificationJobs(ctx);
  defineVaultRetentionJobs(ctx);
  defineAuditJobs(ctx);
  defineArchivalJobs(ctx);
  defineNotificationJobs(ctx);
  defineDispositionJobs(ctx);
  defineDocumentTextJobs(ctx);
  defineApprovalJobs(ctx);
  defineSsoJobs(ctx);
  definePasskeyJobs(ctx);
}
