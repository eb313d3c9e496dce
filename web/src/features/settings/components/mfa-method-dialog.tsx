import { useState, type FormEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowRight, Mail, Smartphone } from 'lucide-react';
import { MSG, type MfaManageResponse, type MfaMethod } from '@strongroom/contracts';
import { RecoveryCodesAcknowledge } from '@/components/recovery-codes-acknowledge';
import { TotpQrCode } from '@/components/totp-qr-code';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { Skeleton } from '@/components/ui/skeleton';
import { VerificationCodeField } from '@/components/verification-code-field';
import { errorMessage } from '@/lib/api-error';
import { isCompleteCode } from '@/lib/code-input';
import { toast } from '@/lib/toast';
import { newTotpSecretQueryKey, useManageMfa, useNewTotpSecret } from '../api/manage-mfa';
import { useSendEmailCode } from '../api/send-email-code';
import { MFA_METHOD_LABELS } from '../lib/format';

type Step = 'choose' | 'totp' | 'email' | 'codes';

type MfaMethodDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The signed-in user's id: an emailed code for the current method is sent to them. */
  userId: number;
  mfaEnabled: boolean;
  method: MfaMethod | null;
  /** The method changed: profile and session are read again. */
  onChanged: () => void;
};

/**
 * Setup and management of the second factor. MFA is never turned off, only switched: to the authenticator app
 * with a QR scan, a code of the current method (emailed, or the current authenticator's) and the new app's code;
 * to email with the current authenticator code. A new authenticator's recovery codes are shown once at the end.
 */
export function MfaMethodDialog({ open, onOpenChange, ...props }: MfaMethodDialogProps) {
  // While the new recovery codes are shown, the dialog closes only through 'I have saved these codes'.
  const [showingCodes, setShowingCodes] = useState(false);
  const close = () => {
    setShowingCodes(false);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next || !showingCodes ? onOpenChange(next) : undefined)}>
      <DialogContent className="max-w-lg" hideClose={showingCodes}>
        {open ? <MfaMethodFlow {...props} onShowCodes={() => setShowingCodes(true)} onClose={close} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function MfaMethodFlow({
  userId,
  mfaEnabled,
  method,
  onChanged,
  onShowCodes,
  onClose,
}: Omit<MfaMethodDialogProps, 'open' | 'onOpenChange'> & { onShowCodes: () => void; onClose: () => void }) {
  const [step, setStep] = useState<Step>('choose');
  const [codes, setCodes] = useState<string[]>([]);

  if (step === 'codes') {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Recovery Codes</DialogTitle>
          <DialogDescription>If you lose the phone with your authenticator app, sign in with one of these codes.</DialogDescription>
        </DialogHeader>
        <RecoveryCodesAcknowledge codes={codes} onContinue={onClose} continueLabel="Done" />
      </>
    );
  }
  if (step === 'totp') {
    return (
      <TotpSwitch
        userId={userId}
        current={mfaEnabled ? method : null}
        onBack={() => setStep('choose')}
        onDone={(answer) => {
          toast.success(MSG.totpEnabled);
          onChanged();
          if (answer.recoveryCodes && answer.recoveryCodes.length > 0) {
            setCodes(answer.recoveryCodes);
            onShowCodes();
            setStep('codes');
          } else onClose();
        }}
      />
    );
  }
  if (step === 'email') {
    return (
      <EmailSwitch
        settingUp={!mfaEnabled}
        onBack={() => setStep('choose')}
        onDone={() => {
          toast.success(MSG.emailEnabled);
          onChanged();
          onClose();
        }}
      />
    );
  }
  return (
    <>
      <DialogHeader>
        <DialogTitle>{mfaEnabled ? 'Manage Multi-Factor Authentication' : 'Set Up Multi-Factor Authentication'}</DialogTitle>
        <DialogDescription>
          {mfaEnabled && method
            ? `Your second factor is ${MFA_METHOD_LABELS[method]}. It cannot be turned off, but you can switch methods.`
            : 'Choose how you prove it is you after your password.'}
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-3">
        {!mfaEnabled || method === 'email' ? (
          <MethodChoice
            icon={<Smartphone aria-hidden="true" />}
            title={mfaEnabled ? 'Switch to Authenticator App' : 'Authenticator App'}
            text="Scan a QR code with an app such as Google Authenticator or 1Password, then enter its 6-digit code."
            onClick={() => setStep('totp')}
          />
        ) : null}
        {mfaEnabled && method === 'totp' ? (
          <>
            <MethodChoice
              icon={<Smartphone aria-hidden="true" />}
              title="Move to a new authenticator app"
              text="A new phone or app: scan a new QR code. The current app stops working."
              onClick={() => setStep('totp')}
            />
            <MethodChoice
              icon={<Mail aria-hidden="true" />}
              title="Switch to Email"
              text="A code is emailed to you at each sign-in. You confirm the switch with your current authenticator code."
              onClick={() => setStep('email')}
            />
          </>
        ) : null}
        {!mfaEnabled ? (
          <MethodChoice
            icon={<Mail aria-hidden="true" />}
            title="Email"
            text="A 6-digit code is emailed to you at each sign-in."
            onClick={() => setStep('email')}
          />
        ) : null}
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </DialogFooter>
    </>
  );
}

function MethodChoice({ icon, title, text, onClick }: { icon: ReactNode; title: string; text: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex items-start gap-3 rounded-lg border border-border p-4 text-left transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring [&>svg]:mt-0.5 [&>svg]:size-5 [&>svg]:shrink-0 [&>svg]:text-primary"
    >
      {icon}
      <span className="grid flex-1 gap-1">
        <span className="text-sm font-semibold">{title}</span>
        <span className="text-sm text-muted-foreground">{text}</span>
      </span>
      <ArrowRight aria-hidden="true" className="text-muted-foreground" />
    </button>
  );
}

type TotpSwitchProps = {
  userId: number;
  /** The method in use now (its code proves the switch), or null while MFA is being set up. */
  current: MfaMethod | null;
  onBack: () => void;
  onDone: (answer: MfaManageResponse) => void;
};

function TotpSwitch({ userId, current, onBack, onDone }: TotpSwitchProps) {
  const secret = useNewTotpSecret();
  const queryClient = useQueryClient();
  const manage = useManageMfa();
  const sendCode = useSendEmailCode();
  const [emailSent, setEmailSent] = useState(false);
  const [currentCode, setCurrentCode] = useState('');
  const [newCode, setNewCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const needsProof = current !== null;
  const proofReady = !needsProof || isCompleteCode(currentCode);
  const ready = Boolean(secret.data?.secret) && proofReady && isCompleteCode(newCode);

  const send = () => {
    setError(null);
    sendCode.mutate(userId, {
      onSuccess: () => {
        setEmailSent(true);
        toast.success(MSG.setupEmailSent);
      },
      onError: (err) => setError(errorMessage(err, MSG.emailSendFailed)),
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready || manage.isPending) return;
    setError(null);
    manage.mutate(
      { operation: 'switch_to_totp', totpToken: newCode, mfaToken: needsProof ? currentCode : 'setup' },
      {
        onSuccess: (answer) => {
          queryClient.removeQueries({ queryKey: newTotpSecretQueryKey });
          onDone(answer);
        },
        onError: (err) => {
          setError(errorMessage(err, MSG.verificationFailed));
          setNewCode('');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>{current === 'totp' ? 'Move to a New Authenticator App' : 'Switch to Authenticator App'}</DialogTitle>
        <DialogDescription>{MSG.totpScanPrompt}</DialogDescription>
      </DialogHeader>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <section aria-label="Step 1: scan the QR code" className="grid gap-3">
        <p className="text-sm font-medium">1. Scan the QR code</p>
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
      </section>
      {current === 'email' ? (
        <section aria-label="Step 2: confirm with an emailed code" className="grid gap-3">
          <p className="text-sm font-medium">2. Confirm it is you with a code sent to your email</p>
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            onClick={send}
            loading={sendCode.isPending}
            loadingText="Sending..."
          >
            <Mail aria-hidden="true" />
            {emailSent ? 'Resend code' : 'Send code to my email'}
          </Button>
          {emailSent ? <p className="text-sm text-muted-foreground">{MSG.setupEmailSentInline}</p> : null}
          <VerificationCodeField label="Code from your email" value={currentCode} onValueChange={setCurrentCode} invalid={false} />
        </section>
      ) : current === 'totp' ? (
        <section aria-label="Step 2: confirm with your current authenticator" className="grid gap-3">
          <p className="text-sm font-medium">2. Confirm it is you with your current authenticator app</p>
          <VerificationCodeField label="Current authenticator code" value={currentCode} onValueChange={setCurrentCode} invalid={false} />
        </section>
      ) : null}
      <section aria-label={`Step ${needsProof ? 3 : 2}: enter the new code`} className="grid gap-3">
        <p className="text-sm font-medium">{needsProof ? 3 : 2}. Enter the code your new authenticator app shows</p>
        <VerificationCodeField
          label="Code from the new authenticator app"
          value={newCode}
          onValueChange={setNewCode}
          invalid={error !== null}
          disabled={!secret.data?.secret}
        />
      </section>
      <DialogFooter>
        <Button variant="outline" onClick={onBack}>
          Back
        </Button>
        <Button type="submit" disabled={!ready} loading={manage.isPending} loadingText="Verifying...">
          Verify &amp; Switch
        </Button>
      </DialogFooter>
    </form>
  );
}

function EmailSwitch({ settingUp, onBack, onDone }: { settingUp: boolean; onBack: () => void; onDone: () => void }) {
  const manage = useManageMfa();
  const send = useManageMfa();
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const sendSetupCode = () => {
    setError(null);
    send.mutate(
      { operation: 'switch_to_email', mfaToken: 'setup' },
      {
        onSuccess: () => {
          setSent(true);
          toast.success(MSG.setupEmailSent);
        },
        onError: (err) => setError(errorMessage(err, MSG.emailSendFailed)),
      },
    );
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!isCompleteCode(code) || manage.isPending) return;
    setError(null);
    manage.mutate(
      { operation: 'switch_to_email', mfaToken: code },
      {
        onSuccess: onDone,
        onError: (err) => {
          setError(errorMessage(err, MSG.verificationFailed));
          setCode('');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>{settingUp ? 'Set Up Email Verification' : 'Switch to Email'}</DialogTitle>
        <DialogDescription>
          {settingUp
            ? 'We will send a 6-digit code to your email address. Each time you sign in, a new code is emailed to you.'
            : 'Enter the code your authenticator app shows now. After the switch, a code is emailed to you at each sign-in and the authenticator app and its recovery codes stop working.'}
        </DialogDescription>
      </DialogHeader>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      {settingUp ? (
        <Button
          variant={sent ? 'outline' : 'primary'}
          className="justify-self-start"
          onClick={sendSetupCode}
          loading={send.isPending}
          loadingText="Sending..."
        >
          <Mail aria-hidden="true" />
          {sent ? 'Resend Verification Code' : 'Send Verification Code'}
        </Button>
      ) : null}
      {!settingUp || sent ? (
        <VerificationCodeField
          label={settingUp ? 'Code from your email' : 'Current authenticator code'}
          value={code}
          onValueChange={setCode}
          invalid={error !== null}
          autoFocus={!settingUp}
        />
      ) : null}
      <DialogActions
        onCancel={onBack}
        submitLabel={settingUp ? 'Verify & Continue' : 'Switch to Email'}
        pendingLabel="Verifying..."
        pending={manage.isPending}
        disabled={!isCompleteCode(code)}
      />
    </form>
  );
}
