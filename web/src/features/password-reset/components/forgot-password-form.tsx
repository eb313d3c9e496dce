import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { toast } from '@/lib/toast';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { MSG, passwordResetRequest } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-error';
import { useRequestPasswordReset } from '../api/request-password-reset';

type ForgotForm = { email: string };

/** 'Forgot Password?': ask for a reset link, then 'Check Your Email'. */
export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<ForgotForm>({ resolver: zodResolver(passwordResetRequest), defaultValues: { email: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(({ email }) => {
    request.mutate(email, {
      onSuccess: (res) => {
        toast.success(res.message || MSG.resetRequested);
        setSentTo(email);
      },
    });
  });

  if (sentTo) {
    return (
      <div className="grid justify-items-center gap-4 text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-success-soft text-success">
          <MailCheck aria-hidden="true" className="size-6" />
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">Check Your Email</h1>
        <p className="text-sm text-muted-foreground">
          If an account exists for <span className="font-medium text-foreground">{sentTo}</span>, we have sent it a link to reset your
          password. The link expires soon, so use it shortly.
        </p>
        <Button asChild variant="outline" className="mt-2">
          <Link to="/login">
            <ArrowLeft aria-hidden="true" />
            Back to Login
          </Link>
        </Button>
      </div>
    );
  }

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Forgot Password?</h1>
        <p className="text-sm text-muted-foreground">Enter your email address and we will send you a link to reset your password.</p>
      </div>
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        {request.isError ? <Alert tone="danger">{errorMessage(request.error, MSG.resetRequestFailed)}</Alert> : null}
        <FormField label="Email" error={errors.email?.message}>
          {(control) => (
            <Input {...control} {...form.register('email')} type="email" autoComplete="email" autoFocus placeholder="name@firm.com" />
          )}
        </FormField>
        <Button type="submit" size="lg" className="w-full" loading={request.isPending} loadingText="Sending...">
          Send Reset Link
        </Button>
      </form>
    </div>
  );
}
