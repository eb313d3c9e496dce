import { useId, useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { recoveryCodeSchema, SETTINGS_MSG, type SessionUser } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useVerifyRecoveryCode } from '../api/mfa-recovery';

type RecoveryCodeStepProps = {
  userId: number;
  onVerified: (user: SessionUser) => void;
  /** Back to the authenticator code. */
  onCancel: () => void;
};

/** Signing in with one of the recovery codes shown when the authenticator was set up (the phone is lost). */
export function RecoveryCodeStep({ userId, onVerified, onCancel }: RecoveryCodeStepProps) {
  const verify = useVerifyRecoveryCode();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (verify.isPending) return;
    const parsed = recoveryCodeSchema.safeParse(value);
    if (!parsed.success) {
      setError(SETTINGS_MSG.recoveryCodeFormat);
      return;
    }
    setError(null);
    verify.mutate(
      { userId, recoveryCode: parsed.data },
      {
        onSuccess: (res) => {
          toast.success(res.message || SETTINGS_MSG.recoveryLoginVerified);
          onVerified(res.user);
        },
        onError: (err) => setError(errorMessage(err, SETTINGS_MSG.recoveryCodeInvalid)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        Lost your phone? Enter one of the recovery codes you saved when you set up your authenticator app. Each code works once.
      </p>
      <div className="grid gap-2">
        <Label htmlFor={inputId}>Recovery code</Label>
        <Input
          id={inputId}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="xxxxx-xxxxx"
          className="font-mono tracking-wider"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          autoFocus
        />
        {error ? (
          <Alert tone="danger" id={errorId}>
            {error}
          </Alert>
        ) : null}
      </div>
      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={value.trim() === ''}
        loading={verify.isPending}
        loadingText="Verifying..."
      >
        Verify
      </Button>
      <Button variant="ghost" size="sm" onClick={onCancel} className="justify-self-center">
        <KeyRound aria-hidden="true" />
        Use authenticator app instead
      </Button>
    </form>
  );
}
