import { lazy, Suspense, useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { PageFallback } from './page-fallback';
import { RouteErrorBoundary } from './route-error-boundary';

/**
 * Every page is its own chunk (React.lazy), so /login loads only what sign-in needs. The protected shell
 * (gate, navigation, top bar, session-expiry notice) is one more chunk shared by the pages behind it.
 * Declarative routes: the data router would add ~17 KB gzipped to every page for loaders we do not use
 * (TanStack Query loads the data).
 */
const LoginPage = lazy(() => import('./pages/login-page').then((m) => ({ default: m.LoginPage })));
const SignupPage = lazy(() => import('./pages/signup-page').then((m) => ({ default: m.SignupPage })));
const PasswordResetPage = lazy(() => import('./pages/password-reset-page').then((m) => ({ default: m.PasswordResetPage })));
const AcceptInvitationPage = lazy(() => import('./pages/accept-invitation-page').then((m) => ({ default: m.AcceptInvitationPage })));
const SetupPage = lazy(() => import('./pages/setup-page').then((m) => ({ default: m.SetupPage })));
const NotFoundPage = lazy(() => import('./pages/not-found-page').then((m) => ({ default: m.NotFoundPage })));
const ProtectedLayout = lazy(() => import('./shell/protected-layout').then((m) => ({ default: m.ProtectedLayout })));
const DashboardPage = lazy(() => import('./pages/dashboard-page').then((m) => ({ default: m.DashboardPage })));
const MattersPage = lazy(() => import('./pages/matters-page').then((m) => ({ default: m.MattersPage })));
const MatterWorkspacePage = lazy(() =>
  import('./pages/matter-workspace/matter-workspace-page').then((m) => ({ default: m.MatterWorkspacePage })),
);
const VaultPage = lazy(() => import('./pages/vault-page').then((m) => ({ default: m.VaultPage })));
const AuditLogsPage = lazy(() => import('./pages/audit-logs-page').then((m) => ({ default: m.AuditLogsPage })));
const SettingsPage = lazy(() => import('./pages/settings-page').then((m) => ({ default: m.SettingsPage })));
const HelpPage = lazy(() => import('./pages/help-page').then((m) => ({ default: m.HelpPage })));

/** Back to the top of the page on each new path (the shell's content scrolls with the window). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <ScrollToTop />
      <Suspense fallback={<PageFallback fullScreen />}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/password-reset" element={<PasswordResetPage />} />
          <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
          <Route path="/setup" element={<SetupPage />} />
          <Route element={<ProtectedLayout />}>
            <Route index element={<DashboardPage />} />
            <Route path="/matters" element={<MattersPage />} />
            <Route path="/matters/:matterId" element={<MatterWorkspacePage />} />
            <Route path="/vault" element={<VaultPage />} />
            <Route path="/audit-logs" element={<AuditLogsPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/help" element={<HelpPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
