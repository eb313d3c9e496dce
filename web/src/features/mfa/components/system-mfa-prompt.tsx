import type { MfaMethod } from '@strongroom/contracts';
import { closeSystemMfaPrompt, completeSystemMfa, type SystemMfaPrompt as Prompt } from '@/lib/system-mfa';
import { verifySystemMfa } from '../api/verify-system-mfa';
import { MfaCodeDialog } from './mfa-code-dialog';

/** Readable names of the operations that need a system MFA token. */
const OPERATION_LABELS: Record<string, string> = {
  VIEW_ARCHIVAL_STATS: 'view archival statistics',
  REVIEW_MIGRATION_LOGS: 'review migration logs',
  MANAGE_FEATURE_FLAGS: 'manage feature flags',
  EXPORT_AUDIT_LOGS: 'export audit logs',
  DELETE_MATTER: 'delete a matter',
  VAULT_MATTER: 'vault a matter',
  MFA_VAULT_OPERATIONS: 'perform vault operations',
  MFA_SETTINGS: 'change security settings',
  MFA_USER_MANAGEMENT: 'manage users',
  MFA_RETENTION_POLICIES: 'change retention policies',
  MFA_ORGANIZATION_SETTINGS: 'change organization settings',
  MFA_SYSTEM_OPERATIONS: 'perform system operations',
};

type SystemMfaPromptProps = {
  prompt: Prompt | null;
  userId?: number;
  userMethod?: MfaMethod | null;
  /** Whether the person has a passkey: then 'Use a passkey' is offered beside the code. */
  hasPasskey?: boolean;
};

/**
 * The system-level MFA prompt: one at a time; a verified code, or a passkey where the person has one, unlocks the
 * operation's class for 30 minutes.
 */
function SystemMfaPromptDialog({ prompt, userId, userMethod, hasPasskey }: SystemMfaPromptProps) {
  const what = prompt ? (OPERATION_LABELS[prompt.operation] ?? 'continue') : '';
  return (
    <MfaCodeDialog
      open={prompt !== null}
      requestKey={prompt?.operation ?? null}
      title="Confirm it’s you"
      description={`Enter a 6-digit verification code to ${what}. You will not be asked again for 30 minutes.`}
      onSubmitCode={async (code) => {
        if (!prompt) return;
        const res = await verifySystemMfa({ operation: prompt.operation, mfaToken: code });
        completeSystemMfa(res.systemMfaToken, res.expiresAt);
      }}
      onCancel={closeSystemMfaPrompt}
      emailUserId={userMethod === 'email' ? userId : undefined}
      passkeyOperation={hasPasskey ? prompt?.operation : undefined}
      onPasskeyToken={async (token) => completeSystemMfa(token)}
    />
  );
}

export default SystemMfaPromptDialog;
