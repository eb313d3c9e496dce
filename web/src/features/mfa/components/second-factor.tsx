import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ArrowLeft, KeyRound, LifeBuoy, Mail, ShieldCheck } from 'lucide-react';
import { toast } from '@/lib/toast';
import { MSG, SSO_MSG, type MfaChallengeResponse, type MfaMethod, type SessionUser } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { isCompleteCode } from '@/lib/code-input';
import { useMfaChallenge } from '../api/mfa-challenge';
import { useVerifyEmailCode } from '../api/mfa-verify-email';
import { useVerifyTotp } from '../api/mfa-verify-totp';
import { useSendMfaEmail } from '../api/send-mfa-email';
import { PasskeySecondFactor } from './passkey-second-factor';
import { RecoveryCodeStep } from './recovery-code-step';
import { VerificationCodeField } from '@/components/verification-code-field';

/** The server refuses a second email within 30 s; the button waits as long. */
const RESEND_COOLDOWN_SECONDS = 30;

type SecondFactorProps = {
  userId: number;
  email: string;
  /** The code was right: the user is signed in. */
  onVerified: (user: SessionUser) => void;
  onBack: () => void;
  /** Single sign-on is required and this is an administrator's password: only a recovery code finishes it. */
  recoveryOnly?: boolean;
};

/** The second-factor screen that replaces the sign-in form. */
export function SecondFactor({ userId, email, onVerified, onBack, recoveryOnly = false }: SecondFactorProps) {
  const challenge = useMfaChallenge(userId);
  // The method the user switched to; until they do, the authenticator app when they have one.
  const [chosen, setMethod] = useState<MfaMethod | null>(null);
  const method = chosen ?? (challenge.data ? defaultMethod(challenge.data) : null);
  // A recovery code instead of the authenticator's code (only offered with the authenticator).
  const [recovery, setRecovery] = useState(false);

  let body;
  if (challenge.isPending || (challenge.isSuccess && method === null)) {
    body = (
      <div role="status" className="flex items-center justify-center gap-3 py-8 text-sm text-muted-foreground">
        <Spinner className="size-5" />
        Setting up verification...
      </div>
    );
  } else if (challenge.isError) {
    body = (
      <div role="alert" className="grid gap-4 py-2">
        <div className="grid gap-1">
          <h3 className="text-base font-semibold">Verification Error</h3>
          <p className="text-sm text-muted-foreground">{errorMessage(challenge.error, MSG.challengeFailed)}</p>
        </div>
        <Button onClick={() => void challenge.refetch()} loading={challenge.isFetching} variant="outline" className="w-full">
          Try Again
        </Button>
      </div>
    );
  } else if (recoveryOnly) {
    body = (
      <div className="grid gap-3">
        <Alert tone="warning">{SSO_MSG.breakGlassRecoveryOnly}</Alert>
        <RecoveryCodeStep userId={userId} onVerified={onVerified} onCancel={onBack} />
      </div>
    );
  } else if (method === 'totp' && recovery) {
    body = <RecoveryCodeStep userId={userId} onVerified={onVerified} onCancel={() => setRecovery(false)} />;
  } else if (method) {
    const available = challenge.data?.availableMethods ?? [method];
    body = (
      <CodeStep
        key={method}
        userId={userId}
        email={email}
        method={method}
        canSwitch={available.includes(method === 'totp' ? 'email' : 'totp')}
        onSwitch={() => setMethod(method === 'totp' ? 'email' : 'totp')}
        onUseRecoveryCode={() => setRecovery(true)}
        onVerified={onVerified}
      />
    );
  }

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <div className="flex size-11 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
          <ShieldCheck aria-hidden="true" className="size-5" />
        </div>
        <h2 className="text-xl font-semibold tracking-tight">Verify your identity</h2>
        <p className="text-sm text-muted-foreground">
          Signing in as <span className="font-medium text-foreground">{email}</span>
        </p>
      </div>
      {challenge.data?.availableMethods.includes('passkey') && !recovery ? (
        <PasskeySecondFactor userId={userId} onVerified={onVerified} />
      ) : null}
      {body}
      <Button variant="link" onClick={onBack} className="justify-self-center text-sm">
        <ArrowLeft aria-hidden="true" />
        Back to sign in
      </Button>
    </div>
  );
}

function defaultMethod({ availableMethods, preferredMethod }: MfaChallengeResponse): MfaMethod {
  if (availableMethods.includes('totp')) return 'totp';
  return availableMethods.find((m): m is MfaMethod => m !== 'passkey') ?? preferredMethod;
}

type CodeStepProps = {
  userId: number;
  email: string;
  method: MfaMethod;
  canSwitch: boolean;
  onSwitch: () => void;
  onUseRecoveryCode: () => void;
  onVerified: (user: SessionUser) => void;
};

function CodeStep({ userId, email, method, canSwitch, onSwitch, onUseRecoveryCode, onVerified }: CodeStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [emailSent, setEmailSent] = useState(false);
  const [cooldown, setCooldown] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const verifyTotp = useVerifyTotp();
  const verifyEmail = useVerifyEmailCode();
  const sendEmail = useSendMfaEmail();
  const verifying = verifyTotp.isPending || verifyEmail.isPending;

  useEffect(() => {
    if (cooldown <= 0) return;
    const t = window.setTimeout(() => setCooldown((c) => c - 1), 1000);
    return () => window.clearTimeout(t);
  }, [cooldown]);

  const send = () => {
    setError(null);
    sendEmail.mutate(userId, {
      onSuccess: (res) => {
        setEmailSent(true);
        setCooldown(RESEND_COOLDOWN_SECONDS);
        toast.success(res.message || MSG.emailCodeSent);
        window.setTimeout(() => inputRef.current?.focus(), 0);
      },
      onError: (err) => setError(errorMessage(err, MSG.emailSendFailed)),
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!isCompleteCode(code) || verifying) return;
    setError(null);
    const verify = method === 'totp' ? verifyTotp : verifyEmail;
    verify.mutate(
      { userId, token: code },
      {
        onSuccess: (res) => {
          if (!res.user.profileId || !res.user.organizationId) {
            setError(MSG.accountSetupIncomplete);
            return;
          }
          toast.success(MSG.loginVerified);
          onVerified(res.user);
        },
        onError: (err) => {
          setError(errorMessage(err, method === 'totp' ? MSG.totpVerifyFailed : MSG.verificationFailed));
          setCode('');
          inputRef.current?.focus();
        },
      },
    );
  };

  if (method === 'email' && !emailSent) {
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">
          We will email a 6-digit verification code to <span className="font-medium text-foreground">{email}</span>.
        </p>
        {error ? <Alert tone="danger">{error}</Alert> : null}
        <Button size="lg" className="w-full" onClick={send} loading={sendEmail.isPending} loadingText="Sending...">
          <Mail aria-hidden="true" />
          Send Code
        </Button>
        {canSwitch ? (
          <Button variant="ghost" onClick={onSwitch} className="w-full">
            <KeyRound aria-hidden="true" />
            Use authenticator app instead
          </Button>
        ) : null}
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        {method === 'totp' ? 'Enter the 6-digit code from your authenticator app.' : `Enter the 6-digit code we sent to ${email}.`}
      </p>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <VerificationCodeField value={code} onValueChange={setCode} invalid={error !== null} inputRef={inputRef} autoFocus />
      <Button type="submit" size="lg" className="w-full" disabled={!isCompleteCode(code)} loading={verifying} loadingText="Verifying...">
        Verify
      </Button>
      {method === 'email' ? (
        <div className="flex flex-col items-center gap-1">
          <Button variant="ghost" size="sm" onClick={send} disabled={cooldown > 0} loading={sendEmail.isPending} loadingText="Sending...">
            Resend code
          </Button>
          {cooldown > 0 ? (
            <p className="text-xs text-muted-foreground" aria-live="off">
              You can request a new code in {cooldown} s.
            </p>
          ) : null}
        </div>
      ) : null}
      {canSwitch ? (
        <Button variant="ghost" size="sm" onClick={onSwitch} className="justify-self-center">
          {method === 'totp' ? <Mail aria-hidden="true" /> : <KeyRound aria-hidden="true" />}
          {method === 'totp' ? 'Email me a code instead' : 'Use authenticator app instead'}
        </Button>
      ) : null}
      {method === 'totp' ? (
        <Button variant="ghost" size="sm" onClick={onUseRecoveryCode} className="justify-self-center">
          <LifeBuoy aria-hidden="true" />
          Use a recovery code
        </Button>
      ) : null}
    </form>
  );
}
