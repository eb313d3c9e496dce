import { useState } from 'react';
import { Fingerprint } from 'lucide-react';
import { PASSKEY_MSG, SYSTEM_MFA_OPERATIONS, type SystemMfaOperation } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { passkeysSupported } from '@/lib/webauthn';
import { stepUpWithPasskey } from '../api/passkey-step-up';

type PasskeyStepUpButtonProps = {
  /** The step-up's operation; the button shows only for an operation a system MFA token serves. */
  operation: string | undefined;
  /** Sends the system MFA token the passkey bought, as the code would be sent. */
  onToken: (token: string) => Promise<void>;
  onError: (message: string) => void;
  disabled?: boolean;
};

const isSystemOperation = (op: string | undefined): op is SystemMfaOperation =>
  op !== undefined && (SYSTEM_MFA_OPERATIONS as readonly string[]).includes(op);

/** 'Use a passkey' in the code dialog: the passkey's assertion buys the token the sensitive call then carries. */
export function PasskeyStepUpButton({ operation, onToken, onError, disabled }: PasskeyStepUpButtonProps) {
  const [busy, setBusy] = useState(false);
  if (!isSystemOperation(operation) || !passkeysSupported()) return null;
  const run = async () => {
    setBusy(true);
    try {
      await onToken(await stepUpWithPasskey(operation));
    } catch (err) {
      onError(errorMessage(err, PASSKEY_MSG.verificationFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => void run()}
      loading={busy}
      loadingText="Waiting for your passkey..."
      disabled={disabled}
      className="justify-self-start"
    >
      <Fingerprint aria-hidden="true" />
      Use a passkey
    </Button>
  );
}
