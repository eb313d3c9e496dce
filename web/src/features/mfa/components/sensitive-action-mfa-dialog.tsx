import { MSG, type MfaMethod } from '@strongroom/contracts';
import type { MfaRequest } from '@/lib/mfa-bridge';
import { MfaCodeDialog } from './mfa-code-dialog';

type SensitiveActionMfaDialogProps = {
  /** The request to answer (from useCurrentMfaRequest), or null when none is pending. */
  request: MfaRequest | null;
  /** The signed-in user, for 'Send code by email'. */
  userId?: number;
  userMethod?: MfaMethod | null;
};

/**
 * Opens when the server demands MFA for an action (401 MFA_REQUIRED): the same request is sent again
 * with the code. A wrong code keeps the dialog open with the error; closing it cancels the action.
 */
function SensitiveActionMfaDialog({ request, userId, userMethod }: SensitiveActionMfaDialogProps) {
  const method = request?.demand.method ?? 'totp';
  const offerEmail = userId !== undefined && (method === 'email' || userMethod === 'email');
  return (
    <MfaCodeDialog
      open={request !== null}
      requestKey={request?.id ?? null}
      title="Verification required"
      description={
        request?.demand.operation === 'APPROVE_REQUEST'
          ? 'Approving takes a fresh code from your own second factor, every time. Enter it to approve the request.'
          : method === 'email'
            ? 'MFA verification is required for this action. Send a code to your email, then enter it below.'
            : MSG.mfaRequired
      }
      onSubmitCode={async (code) => {
        if (request) await request.submit(code);
      }}
      onCancel={() => request?.cancel()}
      emailUserId={offerEmail ? userId : undefined}
      passkeyOperation={request?.demand.availableMethods.includes('passkey') ? request.demand.operation : undefined}
    />
  );
}

export default SensitiveActionMfaDialog;
