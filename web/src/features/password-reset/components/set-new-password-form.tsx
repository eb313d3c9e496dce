import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { LIMITS, MSG, passwordResetVerifyRequest } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-error';
import { useVerifyPasswordReset } from '../api/verify-password-reset';

const newPasswordForm = passwordResetVerifyRequest.pick({ newPassword: true });
type NewPasswordForm = { newPassword: string };

type SetNewPasswordFormProps = { token: string; /** Called 3 s after a successful reset. */ onDone: () => void };

/** 'Set New Password' with the emailed token; back to /login 3 s after success. */
export function SetNewPasswordForm({ token, onDone }: SetNewPasswordFormProps) {
  const reset = useVerifyPasswordReset();
  const [done, setDone] = useState(false);
  const form = useForm<NewPasswordForm>({ resolver: zodResolver(newPasswordForm), defaultValues: { newPassword: '' } });
  const { errors } = form.formState;

  useEffect(() => {
    if (!done) return;
    const t = window.setTimeout(onDone, LIMITS.passwordResetRedirectMs);
    return () => window.clearTimeout(t);
  }, [done, onDone]);

  const onSubmit = form.handleSubmit(({ newPassword }) => {
    reset.mutate(
      { token, newPassword },
      {
        onSuccess: (res) => {
          toast.success(res.message || MSG.resetSuccess);
          setDone(true);
        },
      },
    );
  });

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Set New Password</h1>
        <p className="text-sm text-muted-foreground">Choose a new password for your account.</p>
      </div>
      {done ? (
        // The toast says the published text; this box only says what happens next (one copy of each text).
        <Alert tone="success" title="Password updated">
          Redirecting to login...
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          {reset.isError ? <Alert tone="danger">{errorMessage(reset.error, MSG.resetFailed)}</Alert> : null}
          <FormField label="New Password" error={errors.newPassword?.message} hint="Must be at least 8 characters long.">
            {(control) => <Input {...control} {...form.register('newPassword')} type="password" autoComplete="new-password" autoFocus />}
          </FormField>
          <Button type="submit" size="lg" className="w-full" loading={reset.isPending} loadingText="Resetting...">
            Reset Password
          </Button>
        </form>
      )}
    </div>
  );
}
