import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { toast } from '@/lib/toast';
import { CheckCircle2, Landmark } from 'lucide-react';
import { MSG, readErrorDetails, setupRequest, type SetupRequest } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/error-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api-error';
import { isBareAnswer } from '@/lib/conflicts';
import { useSetupStatus } from '../api/get-setup-status';
import { useRunSetup } from '../api/run-setup';

/**
 * Setup was done already: the server's 409 says so by its reason (another 409, such as an address that has an
 * account, is shown as the form's error); a bare 409 from something in front of the server, by its status alone.
 */
function isAlreadySetUp(error: unknown): boolean {
  if (!isApiError(error) || error.status !== 409) return false;
  return readErrorDetails(error.details).reason === 'ALREADY_SET_UP' || isBareAnswer(error);
}

/** The toast of a finished setup. */
const SETUP_COMPLETE_MESSAGE = MSG.setupComplete;

/** /setup: the first-run form while no organization exists; afterwards the page only points to sign-in. */
export function SetupScreen({ onDone }: { onDone: () => void }) {
  const status = useSetupStatus();
  const [alreadyDone, setAlreadyDone] = useState(false);

  if (status.isPending) {
    return (
      <div role="status" aria-label="Checking setup status" className="grid gap-4">
        <Skeleton className="h-7 w-1/2" />
        <Skeleton className="h-4 w-full" />
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  }
  if (status.isError) {
    return (
      <ErrorState
        title="Could not check setup status"
        message={errorMessage(status.error)}
        onRetry={() => void status.refetch()}
        retrying={status.isFetching}
        titleAs="h1"
      />
    );
  }
  if (!status.data.needsSetup || alreadyDone) return <SetupDone />;
  return <SetupForm onDone={onDone} onAlreadyDone={() => setAlreadyDone(true)} />;
}

function SetupDone() {
  return (
    <div className="grid justify-items-center gap-4 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-success-soft text-success">
        <CheckCircle2 aria-hidden="true" className="size-6" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">Already set up</h1>
      <p className="text-sm text-muted-foreground">{MSG.setupDone}</p>
      <Button asChild className="mt-2">
        <Link to="/login">Go to Login</Link>
      </Button>
    </div>
  );
}

function SetupForm({ onDone, onAlreadyDone }: { onDone: () => void; onAlreadyDone: () => void }) {
  const setup = useRunSetup();
  const form = useForm<SetupRequest>({
    resolver: zodResolver(setupRequest),
    defaultValues: { setupToken: '', organizationName: '', adminName: '', adminEmail: '', adminPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setup.mutate(values, {
      onSuccess: () => {
        toast.success(SETUP_COMPLETE_MESSAGE);
        onDone();
      },
      onError: (err) => {
        if (isAlreadySetUp(err)) onAlreadyDone();
        else if (isApiError(err) && err.status === 403)
          form.setError('setupToken', { type: 'server', message: err.message || MSG.setupTokenInvalid });
      },
    });
  });

  const showFormError = setup.isError && !isAlreadySetUp(setup.error) && !(isApiError(setup.error) && setup.error.status === 403);

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <div className="flex size-11 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
          <Landmark aria-hidden="true" className="size-5" />
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">Set up your firm</h1>
        <p className="text-sm text-muted-foreground">
          Create your firm and its first administrator account. You will sign in with it afterwards.
        </p>
      </div>
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        {showFormError ? <Alert tone="danger">{errorMessage(setup.error)}</Alert> : null}
        <FormField
          label="Setup token"
          error={errors.setupToken?.message}
          hint="Printed in the server log when Strongroom starts for the first time."
        >
          {(control) => (
            <Input {...control} {...form.register('setupToken')} autoComplete="off" spellCheck={false} className="font-mono" autoFocus />
          )}
        </FormField>
        <FormField label="Firm name" error={errors.organizationName?.message}>
          {(control) => <Input {...control} {...form.register('organizationName')} autoComplete="organization" />}
        </FormField>
        <FormField label="Your full name" error={errors.adminName?.message}>
          {(control) => <Input {...control} {...form.register('adminName')} autoComplete="name" />}
        </FormField>
        <FormField label="Email" error={errors.adminEmail?.message}>
          {(control) => <Input {...control} {...form.register('adminEmail')} type="email" autoComplete="email" />}
        </FormField>
        <FormField label="Password" error={errors.adminPassword?.message} hint="At least 8 characters.">
          {(control) => <Input {...control} {...form.register('adminPassword')} type="password" autoComplete="new-password" />}
        </FormField>
        <Button type="submit" size="lg" className="w-full" loading={setup.isPending} loadingText="Setting up...">
          Set Up Strongroom
        </Button>
      </form>
    </div>
  );
}
