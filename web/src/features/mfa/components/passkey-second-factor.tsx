import { Fingerprint } from 'lucide-react';
import { PASSKEY_MSG, type SessionUser } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { passkeysSupported } from '@/lib/webauthn';
import { useVerifyPasskey } from '../api/mfa-verify-passkey';

type PasskeySecondFactorProps = { userId: number; onVerified: (user: SessionUser) => void };

/** 'Use a passkey' on the second step of signing in (shown when the person has one and the browser can). */
export function PasskeySecondFactor({ userId, onVerified }: PasskeySecondFactorProps) {
  const verify = useVerifyPasskey();
  if (!passkeysSupported()) return null;
  return (
    <div className="grid gap-3">
      {verify.isError ? <Alert tone="danger">{errorMessage(verify.error, PASSKEY_MSG.verificationFailed)}</Alert> : null}
      <Button
        variant="outline"
        size="lg"
        className="w-full"
        loading={verify.isPending}
        loadingText="Waiting for your passkey..."
        onClick={() =>
          verify.mutate(userId, {
            onSuccess: (res) => {
              toast.success(res.message);
              onVerified(res.user);
            },
          })
        }
      >
        <Fingerprint aria-hidden="true" />
        Use a passkey
      </Button>
    </div>
  );
}
