import { useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { LogOut, ShieldAlert } from 'lucide-react';
import { MSG, PAGE_ROLES } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { MfaSetupWall } from '@/features/mfa/components/mfa-setup-wall';
import { releaseRecoveryCodes, useUnsavedRecoveryCodes } from '@/features/mfa/hooks/unsaved-recovery-codes';
import { AppShell } from './app-shell';
import { guestMayOpen } from './nav-items';

/** What the gate tells /login when it sends someone there: why, when there is a reason to show. */
export type LoginRedirectState = { message?: string };

/**
 * The protected-page gate: a skeleton while the session loads; /login when
 * nobody is signed in; the MFA setup wall when the organization requires MFA the user has not set up; for a
 * guest, the matters shared with them (and Help) and 'Access Denied' anywhere else; otherwise the shell with the
 * page.
 */
export function ProtectedLayout() {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const { logout, pending: loggingOut } = useLogout();
  const { pathname } = useLocation();
  const unsavedRecoveryCodes = useUnsavedRecoveryCodes();
  // Codes held for the wall belong to the session that enrolled: once it is gone they are dropped, never shown to
  // whoever signs in next in this tab.
  useEffect(() => {
    if (auth.status === 'unauthenticated') releaseRecoveryCodes();
  }, [auth.status]);
  if (auth.status === 'loading') return <AuthenticatingSkeleton />;

  if (auth.status === 'unauthenticated') {
    if (auth.reason === 'version-mismatch') {
      return (
        <FullPage>
          <ErrorState
            titleAs="h1"
            title="Update required"
            message={MSG.apiVersionMismatch}
            onRetry={() => window.location.reload()}
            retryLabel="Refresh"
          />
        </FullPage>
      );
    }
    if (auth.reason === 'unavailable') {
      return (
        <FullPage>
          <ErrorState
            titleAs="h1"
            title="Could not verify your session"
            message={auth.message}
            onRetry={auth.refetch}
            retrying={auth.isFetching}
            retryLabel="Try again"
          />
        </FullPage>
      );
    }
    const state: LoginRedirectState = { message: auth.reason === 'invalid-account' ? auth.message : undefined };
    return (
      <FullPage>
        <p role="status" className="text-sm text-muted-foreground">
          Redirecting to login...
        </p>
        <Navigate to="/login" replace state={state} />
      </FullPage>
    );
  }

  const { user } = auth;
  // The wall stays up after an authenticator is enrolled until its recovery codes are acknowledged.
  if (user.mfaSetupRequired || unsavedRecoveryCodes) {
    return (
      <MfaSetupWall
        organizationName={user.organizationName}
        onEnabled={() => void queryClient.invalidateQueries({ queryKey: sessionQueryKey })}
        onLogout={() => void logout()}
        loggingOut={loggingOut}
      />
    );
  }

  // Guests read only the matters an administrator shared with them: their home is the matters list.
  if (!PAGE_ROLES.includes(user.role) && pathname === '/') return <Navigate to="/matters" replace />;
  if (!PAGE_ROLES.includes(user.role) && !guestMayOpen(pathname)) {
    return (
      <FullPage>
        <Card className="grid max-w-md justify-items-center gap-3 p-8 text-center">
          <div className="flex size-12 items-center justify-center rounded-full bg-danger-soft text-danger">
            <ShieldAlert aria-hidden="true" className="size-6" />
          </div>
          <h1 className="text-xl font-semibold">Access Denied</h1>
          <p className="text-sm text-muted-foreground">{MSG.accessDenied(user.role)}</p>
          <div className="mt-2 flex flex-wrap justify-center gap-2">
            <Button asChild>
              <Link to="/matters">Shared matters</Link>
            </Button>
            <Button variant="outline" onClick={() => void logout()} loading={loggingOut} loadingText="Logging out...">
              <LogOut aria-hidden="true" />
              Logout
            </Button>
          </div>
        </Card>
      </FullPage>
    );
  }

  return (
    <AppShell user={user} session={auth.session} onLogout={() => void logout()}>
      <Outlet />
    </AppShell>
  );
}

function FullPage({ children }: { children: ReactNode }) {
  return <div className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 py-10">{children}</div>;
}

/** The shape of the shell in grey while the session is checked. */
function AuthenticatingSkeleton() {
  return (
    <div role="status" aria-label="Authenticating" aria-busy="true" className="min-h-dvh bg-background">
      <span className="sr-only">Authenticating</span>
      <div className="flex h-16 items-center gap-3 border-b border-border px-4">
        <Skeleton className="size-7 rounded-lg" />
        <Skeleton className="h-5 w-28" />
        <Skeleton className="ml-4 hidden h-9 w-80 md:block" />
        <div className="ml-auto flex gap-2">
          <Skeleton className="size-9 rounded-full" />
          <Skeleton className="size-9 rounded-full" />
        </div>
      </div>
      <div className="flex">
        <div className="hidden w-60 gap-2 border-r border-border p-3 lg:grid lg:content-start">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
        <div className="flex-1 space-y-4 px-4 py-8 lg:px-10">
          <Skeleton className="h-8 w-56" />
          <Skeleton className="h-4 w-80" />
          <div className="grid gap-4 pt-4 sm:grid-cols-3">
            <Skeleton className="h-28" />
            <Skeleton className="h-28" />
            <Skeleton className="h-28" />
          </div>
        </div>
      </div>
    </div>
  );
}
