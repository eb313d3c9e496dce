import type { ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { loginRequest, MSG, type LoginRequest, type LoginResponse } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-error';
import { useLoginWithPassword } from '../api/login-with-password';

type LoginFormProps = {
  /** The password was right: the second factor comes next. */
  onPasswordAccepted: (result: LoginResponse) => void;
  defaultEmail?: string;
  /** Shown under the email field, given the address as typed (the single sign-on button). */
  afterEmail?: (email: string) => ReactNode;
};

/** Email and password (the contract's loginRequest schema); errors inline. */
export function LoginForm({ onPasswordAccepted, defaultEmail = '', afterEmail }: LoginFormProps) {
  const login = useLoginWithPassword();
  const form = useForm<LoginRequest>({
    resolver: zodResolver(loginRequest),
    defaultValues: { email: defaultEmail, password: '' },
  });
  const { errors } = form.formState;
  const email = useWatch({ control: form.control, name: 'email' });

  const onSubmit = form.handleSubmit((values) => {
    login.mutate(values, { onSuccess: onPasswordAccepted });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Sign in">
      {login.isError ? <Alert tone="danger">{errorMessage(login.error, MSG.loginFailed)}</Alert> : null}
      <FormField label="Email" error={errors.email?.message}>
        {(control) => (
          <Input {...control} {...form.register('email')} type="email" autoComplete="username" autoFocus placeholder="name@firm.com" />
        )}
      </FormField>
      {afterEmail?.(email)}
      <FormField
        label="Password"
        error={errors.password?.message}
        labelAside={
          <Link to="/password-reset" className="text-sm font-medium text-link underline-offset-4 hover:underline">
            Forgot password?
          </Link>
        }
      >
        {(control) => <Input {...control} {...form.register('password')} type="password" autoComplete="current-password" />}
      </FormField>
      <Button type="submit" size="lg" className="w-full" loading={login.isPending} loadingText="Signing in...">
        Sign in
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        <Link to="/signup" className="font-medium text-link underline-offset-4 hover:underline">
          Need an account? Contact support
        </Link>
      </p>
    </form>
  );
}
