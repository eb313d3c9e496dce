import { Fingerprint } from 'lucide-react';
import { PASSKEY_MSG, type SessionUser } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { passkeysSupported } from '@/lib/webauthn';
import { useLoginWithPasskey } from '../api/login-with-passkey';

/**
 * 'Sign in with a passkey' on /login, where the browser can. Whether the person's organization allows it is the
 * server's to say: its refusal is shown as it is.
 */
export function PasskeySignIn({ onVerified }: { onVerified: (user: SessionUser) => void }) {
  const login = useLoginWithPasskey();
  if (!passkeysSupported()) return null;
  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      {login.isError ? <Alert tone="danger">{errorMessage(login.error, PASSKEY_MSG.verificationFailed)}</Alert> : null}
      <Button
        variant="outline"
        size="lg"
        className="w-full"
        loading={login.isPending}
        loadingText="Waiting for your passkey..."
        onClick={() => login.mutate(undefined, { onSuccess: (res) => onVerified(res.user) })}
      >
        <Fingerprint aria-hidden="true" />
        Sign in with a passkey
      </Button>
    </div>
  );
}
