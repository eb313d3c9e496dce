import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Mail, ShieldCheck, Smartphone } from 'lucide-react';
import { toast } from '@/lib/toast';
import { MSG } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-error';
import { isCompleteCode } from '@/lib/code-input';
import { totpSecretQueryOptions, useMfaManage, useTotpSecret } from '../api/mfa-manage';
import { TotpQrCode } from '@/components/totp-qr-code';
import { VerificationCodeField } from '@/components/verification-code-field';
import { RecoveryCodesAcknowledge } from '@/components/recovery-codes-acknowledge';
import { holdRecoveryCodes, releaseRecoveryCodes, useUnsavedRecoveryCodes } from '../hooks/unsaved-recovery-codes';

type MfaSetupWallProps = {
  /** MFA is now enabled: refresh the session so the wall goes away. */
  onEnabled: () => void;
  onLogout: () => void;
  loggingOut?: boolean;
  organizationName?: string;
};

/** Shown instead of every page to a user whose organization requires MFA they have not set up. */
export function MfaSetupWall({ onEnabled: notifyEnabled, onLogout, loggingOut, organizationName }: MfaSetupWallProps) {
  const [tab, setTab] = useState<'totp' | 'email'>('totp');
  const queryClient = useQueryClient();
  // Once MFA is on, the pending secret is spent: forget it when the wall goes away (not before, or the
  // still-mounted tab would fetch a new one).
  const enabled = useRef(false);
  useEffect(
    () => () => {
      if (enabled.current) queryClient.removeQueries({ queryKey: totpSecretQueryOptions().queryKey });
    },
    [queryClient],
  );
  const onEnabled = () => {
    enabled.current = true;
    notifyEnabled();
  };
  const unsavedCodes = useUnsavedRecoveryCodes();
  if (unsavedCodes) {
    return (
      <WallCard
        title="Save Your Recovery Codes"
        description="Your authenticator app is set up. If you lose the phone it is on, sign in with one of these codes instead: each works once, and they are shown only now."
      >
        <RecoveryCodesAcknowledge
          codes={unsavedCodes}
          onContinue={() => {
            releaseRecoveryCodes();
            onEnabled();
          }}
        />
      </WallCard>
    );
  }
  return (
    <WallCard
      title="Enhance Your Account Security"
      description={`${organizationName ? `${organizationName} requires` : 'Your organization requires'} multi-factor authentication (MFA) for every account. Set up a second factor to continue.`}
    >
      <Tabs value={tab} onValueChange={(v) => setTab(v as 'totp' | 'email')}>
        <TabsList aria-label="MFA method">
          <TabsTrigger value="totp">
            <Smartphone aria-hidden="true" />
            Authenticator App
          </TabsTrigger>
          <TabsTrigger value="email">
            <Mail aria-hidden="true" />
            Email
          </TabsTrigger>
        </TabsList>
        <TabsContent value="totp">
          <TotpSetup onEnabled={onEnabled} />
        </TabsContent>
        <TabsContent value="email">
          <EmailSetup onEnabled={onEnabled} />
        </TabsContent>
      </Tabs>
      <div className="flex items-center justify-between gap-3 border-t border-border pt-4">
        <p className="text-xs text-muted-foreground">Not now? You can sign out and come back later.</p>
        <Button variant="outline" size="sm" onClick={onLogout} loading={loggingOut} loadingText="Logging out...">
          <LogOut aria-hidden="true" />
          Logout
        </Button>
      </div>
    </WallCard>
  );
}

function WallCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh items-start justify-center bg-background px-4 py-10 sm:items-center">
      <Card className="w-full max-w-lg">
        <CardHeader className="gap-3">
          <div className="flex size-11 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
            <ShieldCheck aria-hidden="true" className="size-5" />
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">{children}</CardContent>
      </Card>
    </div>
  );
}

/** The last step of either method: send the code; on success toast and leave the wall, else show why. */
function submitSwitch(
  manage: ReturnType<typeof useMfaManage>,
  body: Parameters<ReturnType<typeof useMfaManage>['mutate']>[0],
  successText: string,
  ui: { onEnabled: () => void; setError: (e: string | null) => void; setCode: (c: string) => void },
) {
  ui.setError(null);
  manage.mutate(body, {
    onSuccess: (answer) => {
      toast.success(successText);
      // A new authenticator's recovery codes: the wall shows them until the user says they saved them.
      if (answer.recoveryCodes && answer.recoveryCodes.length > 0) holdRecoveryCodes(answer.recoveryCodes);
      ui.onEnabled();
    },
    onError: (err) => {
      ui.setError(errorMessage(err, MSG.verificationFailed));
      ui.setCode('');
    },
  });
}

function TotpSetup({ onEnabled }: { onEnabled: () => void }) {
  const secret = useTotpSecret();
  const manage = useMfaManage();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (secret.isError) toast.error(MSG.qrFailed, { id: 'mfa-qr-failed' });
  }, [secret.isError]);

  const verify = () =>
    submitSwitch(manage, { operation: 'switch_to_totp', totpToken: code, mfaToken: 'setup' }, MSG.totpEnabled, {
      onEnabled,
      setError,
      setCode,
    });

  return (
    <div className="grid gap-5">
      <p className="text-sm text-muted-foreground">Scan the image with your authenticator app, then enter the 6-digit code below.</p>
      {secret.isPending ? (
        <div role="status" aria-label="Loading QR code" className="grid justify-items-center gap-3">
          <Skeleton className="size-48 rounded-lg" />
          <Skeleton className="h-9 w-64" />
        </div>
      ) : secret.isError || !secret.data?.qrCode ? (
        <Alert tone="danger" title={MSG.qrFailed}>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => void secret.refetch()} loading={secret.isFetching}>
            Try again
          </Button>
        </Alert>
      ) : (
        <TotpQrCode qrCode={secret.data.qrCode} secret={secret.data.secret} />
      )}
      <CodeForm
        code={code}
        onCodeChange={setCode}
        error={error}
        onSubmit={verify}
        pending={manage.isPending}
        disabled={!secret.data?.secret}
      />
    </div>
  );
}

function EmailSetup({ onEnabled }: { onEnabled: () => void }) {
  const manage = useMfaManage();
  const send = useMfaManage();
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);

  const sendCode = () => {
    setSendError(null);
    send.mutate(
      { operation: 'switch_to_email', mfaToken: 'setup' },
      {
        onSuccess: () => {
          setSent(true);
          toast.success(MSG.setupEmailSent);
        },
        onError: (err) => setSendError(errorMessage(err, MSG.emailSendFailed)),
      },
    );
  };

  const verify = () =>
    submitSwitch(manage, { operation: 'switch_to_email', mfaToken: code }, MSG.emailEnabled, { onEnabled, setError, setCode });

  return (
    <div className="grid gap-5">
      <p className="text-sm text-muted-foreground">
        We will send a 6-digit code to your email address. Each time you sign in, a new code is emailed to you.
      </p>
      {sendError ? <Alert tone="danger">{sendError}</Alert> : null}
      <Button
        variant={sent ? 'outline' : 'primary'}
        onClick={sendCode}
        loading={send.isPending}
        loadingText="Sending..."
        className="justify-self-start"
      >
        <Mail aria-hidden="true" />
        {sent ? 'Resend Verification Code' : 'Send Verification Code'}
      </Button>
      {sent ? (
        <>
          <Alert tone="success">{MSG.setupEmailSentInline}</Alert>
          <CodeForm code={code} onCodeChange={setCode} error={error} onSubmit={verify} pending={manage.isPending} />
        </>
      ) : null}
    </div>
  );
}

type CodeFormProps = {
  code: string;
  onCodeChange: (code: string) => void;
  error: string | null;
  onSubmit: () => void;
  pending: boolean;
  disabled?: boolean;
};

function CodeForm({ code, onCodeChange, error, onSubmit, pending, disabled }: CodeFormProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (error) inputRef.current?.focus();
  }, [error]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (isCompleteCode(code) && !pending && !disabled) onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3">
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <VerificationCodeField value={code} onValueChange={onCodeChange} invalid={error !== null} inputRef={inputRef} disabled={disabled} />
      <Button type="submit" size="lg" disabled={disabled || !isCompleteCode(code)} loading={pending} loadingText="Verifying...">
        Verify &amp; Continue
      </Button>
    </form>
  );
}
