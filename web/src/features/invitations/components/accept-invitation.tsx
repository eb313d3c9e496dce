import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { toast } from '@/lib/toast';
import { MailX } from 'lucide-react';
import { invitationAcceptRequest, MSG } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { isApiError } from '@/lib/api-error';
import { useAcceptInvitation } from '../api/invitation-accept';
import { useInvitation } from '../api/invitation-verify';

const acceptForm = invitationAcceptRequest.omit({ token: true });
type AcceptForm = { fullName: string; password: string };

type AcceptInvitationProps = { token: string; onAccepted: () => void };

/** /accept-invitation?token=...: verify the token, then create the account. */
export function AcceptInvitation({ token, onAccepted }: AcceptInvitationProps) {
  const invitation = useInvitation(token);

  if (!token) return <InvalidInvitation message={MSG.invitationInvalid} />;
  if (invitation.isPending) {
    return (
      <div role="status" aria-label="Verifying invitation" className="grid gap-4">
        <Skeleton className="h-7 w-2/3" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-11 w-full" />
      </div>
    );
  }
  if (invitation.isError || !invitation.data) {
    const message = invitation.isError
      ? isApiError(invitation.error) && invitation.error.message
        ? invitation.error.message
        : MSG.invitationVerifyFailed
      : MSG.invitationInvalid;
    return <InvalidInvitation message={message} />;
  }
  return (
    <AcceptForm token={token} organizationName={invitation.data.organizationName} email={invitation.data.email} onAccepted={onAccepted} />
  );
}

function InvalidInvitation({ message }: { message: string }) {
  return (
    <div className="grid justify-items-center gap-4 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-danger-soft text-danger">
        <MailX aria-hidden="true" className="size-6" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">Invalid Invitation</h1>
      <p role="alert" className="text-sm text-muted-foreground">
        {message}
      </p>
      <p className="text-sm text-muted-foreground">Ask your firm’s administrator to send you a new invitation.</p>
      <Button asChild variant="outline" className="mt-2">
        <Link to="/login">Return to Login</Link>
      </Button>
    </div>
  );
}

type AcceptFormProps = { token: string; organizationName: string; email: string; onAccepted: () => void };

function AcceptForm({ token, organizationName, email, onAccepted }: AcceptFormProps) {
  const accept = useAcceptInvitation();
  const form = useForm<AcceptForm>({ resolver: zodResolver(acceptForm), defaultValues: { fullName: '', password: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    accept.mutate(
      { token, ...values },
      {
        onSuccess: () => {
          toast.success(MSG.invitationWelcome);
          onAccepted();
        },
        onError: (err) => {
          const message = isApiError(err) ? err.message || MSG.invitationAcceptFailed : MSG.unexpectedRetry;
          toast.error(message);
          form.setError('fullName', { type: 'server', message });
        },
      },
    );
  });

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Join {organizationName}</h1>
        <p className="text-sm text-muted-foreground">
          Create your account to accept the invitation for <span className="font-medium text-foreground">{email}</span>
        </p>
      </div>
      <Alert tone="info">
        You are joining <strong>{organizationName}</strong> on Strongroom. Your administrator has chosen your role.
      </Alert>
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <FormField label="Full Name" error={errors.fullName?.message}>
          {(control) => <Input {...control} {...form.register('fullName')} autoComplete="name" autoFocus />}
        </FormField>
        <FormField label="Password" error={errors.password?.message} hint="Must be at least 8 characters.">
          {(control) => <Input {...control} {...form.register('password')} type="password" autoComplete="new-password" />}
        </FormField>
        <Button type="submit" size="lg" className="w-full" loading={accept.isPending} loadingText="Creating account...">
          Create Account and Join
        </Button>
      </form>
    </div>
  );
}
