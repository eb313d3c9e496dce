import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { SSO_ERROR_CODES, SSO_MSG, type LoginResponse, type SessionUser, type SsoErrorCode } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { sessionQueryKey, setSessionData } from '@/features/auth/api/get-session';
import { LoginForm } from '@/features/auth/components/login-form';
import { PasskeySignIn } from '@/features/auth/components/passkey-sign-in';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { SecondFactor } from '@/features/mfa/components/second-factor';
import { useSsoPending } from '@/features/sso/api/get-sso-pending';
import { ContinueWithProvider } from '@/features/sso/components/continue-with-provider';
import { useSetupStatus } from '@/features/setup/api/get-setup-status';
import { useDocumentTitle } from '@/lib/document-title';
import { AuthLayout } from '../layouts/auth-layout';
import { BrandMark } from '../shell/brand';
import type { LoginRedirectState } from '../shell/protected-layout';

/** /login: password, then the second factor. */
export function LoginPage() {
  useDocumentTitle('Login');
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<LoginResponse | null>(null);
  const redirect = (location.state ?? {}) as LoginRedirectState;
  const [search, setSearch] = useSearchParams();
  // Back from the provider: its refusal in words, or the second step of the sign-in it started.
  const ssoError = search.get('sso_error');
  const ssoErrorText = (SSO_ERROR_CODES as readonly string[]).includes(ssoError ?? '') ? SSO_MSG.errors[ssoError as SsoErrorCode] : null;
  const ssoPending = useSsoPending(search.get('sso') === 'second-step' && !pending);
  const fromProvider = pending ?? (ssoPending.data ? { userId: ssoPending.data.userId, email: ssoPending.data.email } : null);
  const leaveSecondStep = () => {
    setPending(null);
    setSearch({}, { replace: true });
  };

  // A signed-in visitor has nothing to do here and goes to the dashboard.
  if (auth.status === 'authenticated') return <Navigate to="/" replace />;

  const onVerified = (user: SessionUser) => {
    setSessionData(queryClient, { user, session: null, apiVersion: null });
    // The verify answer has the user only: fetch the full session (expiry, API version) behind it.
    void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    void navigate('/', { replace: true });
  };

  return (
    <AuthLayout
      header={
        <div className="grid justify-items-center gap-3 text-center">
          <BrandMark className="size-11" />
          <h1 className="text-3xl font-semibold tracking-tight">Strongroom</h1>
          <p className="text-sm text-muted-foreground">Securely access your legal archive.</p>
        </div>
      }
      footer={<SetupHint />}
    >
      {fromProvider ? (
        <SecondFactor
          userId={fromProvider.userId}
          email={fromProvider.email}
          recoveryOnly={pending?.breakGlass === true}
          onVerified={onVerified}
          onBack={leaveSecondStep}
        />
      ) : (
        <div className="grid gap-6">
          <div className="grid gap-1">
            <h2 className="text-xl font-semibold tracking-tight">Login</h2>
            <p className="text-sm text-muted-foreground">Sign in with your firm account.</p>
          </div>
          {redirect.message ? <Alert tone="warning">{redirect.message}</Alert> : null}
          {ssoErrorText ? <Alert tone="danger">{ssoErrorText}</Alert> : null}
          {ssoPending.isError ? <Alert tone="danger">{SSO_MSG.noPendingSignIn}</Alert> : null}
          <LoginForm onPasswordAccepted={setPending} afterEmail={(email) => <ContinueWithProvider email={email} />} />
          <PasskeySignIn onVerified={onVerified} />
        </div>
      )}
    </AuthLayout>
  );
}

/** On a fresh installation, point to /setup. */
function SetupHint() {
  const status = useSetupStatus();
  if (!status.data?.needsSetup) return null;
  return (
    <p>
      Strongroom has not been set up yet.{' '}
      <Link to="/setup" className="font-medium text-link underline-offset-4 hover:underline">
        Set up your firm
      </Link>
    </p>
  );
}
