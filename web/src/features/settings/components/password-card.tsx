import { useId, useState, type Ref } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordRequest, MSG, type ChangePasswordRequest } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage, isApiError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useChangePassword } from '../api/change-password';

/** Change Password: current, new (at least 8) and its confirmation; the user's other sessions end. */
export function PasswordCard({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  const change = useChangePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const headingId = useId();
  const form = useForm<ChangePasswordRequest>({
    resolver: zodResolver(changePasswordRequest),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    change.mutate(values, {
      onSuccess: () => {
        toast.success(MSG.passwordChanged);
        form.reset();
      },
      onError: (error) => {
        if (isApiError(error) && error.message === MSG.currentPasswordWrong) {
          form.setError('currentPassword', { message: error.message }, { shouldFocus: true });
          return;
        }
        setFormError(errorMessage(error));
      },
    });
  });

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus-visible:outline-none">
          Change Password
        </h2>
        <CardDescription>You stay signed in here; your other sessions are signed out.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid max-w-md gap-4">
          {formError ? <Alert tone="danger">{formError}</Alert> : null}
          <FormField label="Current password" error={errors.currentPassword?.message}>
            {(control) => <Input {...control} {...form.register('currentPassword')} type="password" autoComplete="current-password" />}
          </FormField>
          <FormField label="New password" error={errors.newPassword?.message} hint="At least 8 characters.">
            {(control) => <Input {...control} {...form.register('newPassword')} type="password" autoComplete="new-password" />}
          </FormField>
          <FormField label="Confirm new password" error={errors.confirmPassword?.message}>
            {(control) => <Input {...control} {...form.register('confirmPassword')} type="password" autoComplete="new-password" />}
          </FormField>
          <Button type="submit" className="justify-self-start" loading={change.isPending} loadingText="Changing...">
            Change Password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
