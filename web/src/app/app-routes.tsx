import { lazy, Suspense, useEffect } from 'react';
import { matchPath, Route, Routes, useLocation } from 'react-router';
import { PageFallback } from './page-fallback';
import { RouteErrorBoundary } from './route-error-boundary';

/**
 * Every page is its own chunk (React.lazy), so /login loads only what sign-in needs. The protected shell
 * (gate, navigation, top bar, session-expiry notice) is one more chunk shared by the pages behind it.
 * Declarative routes: the data router would add ~17 KB gzipped to every page for loaders we do not use
 * (TanStack Query loads the data).
 */
/** A page's chunk, asked for once: React.lazy and the start-up preload share the same download. */
function chunk<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => (pending ??= load());
}

const loadLogin = chunk(() => import('./pages/login-page').then((m) => ({ default: m.LoginPage })));
const loadProtectedLayout = chunk(() => import('./shell/protected-layout').then((m) => ({ default: m.ProtectedLayout })));
const loadDashboard = chunk(() => import('./pages/dashboard-page').then((m) => ({ default: m.DashboardPage })));
const loadMatters = chunk(() => import('./pages/matters-page').then((m) => ({ default: m.MattersPage })));
const loadMatterWorkspace = chunk(() =>
  import('./pages/matter-workspace/matter-workspace-page').then((m) => ({ default: m.MatterWorkspacePage })),
);

const LoginPage = lazy(loadLogin);
const SignupPage = lazy(() => import('./pages/signup-page').then((m) => ({ default: m.SignupPage })));
const PasswordResetPage = lazy(() => import('./pages/password-reset-page').then((m) => ({ default: m.PasswordResetPage })));
const AcceptInvitationPage = lazy(() => import('./pages/accept-invitation-page').then((m) => ({ default: m.AcceptInvitationPage })));
const SetupPage = lazy(() => import('./pages/setup-page').then((m) => ({ default: m.SetupPage })));
const NotFoundPage = lazy(() => import('./pages/not-found-page').then((m) => ({ default: m.NotFoundPage })));
const ProtectedLayout = lazy(loadProtectedLayout);
const DashboardPage = lazy(loadDashboard);
const MattersPage = lazy(loadMatters);
const MatterWorkspacePage = lazy(loadMatterWorkspace);
const VaultPage = lazy(() => import('./pages/vault-page').then((m) => ({ default: m.VaultPage })));
const DispositionPage = lazy(() => import('./pages/disposition-page').then((m) => ({ default: m.DispositionPage })));
const AuditLogsPage = lazy(() => import('./pages/audit-logs-page').then((m) => ({ default: m.AuditLogsPage })));
const SettingsPage = lazy(() => import('./pages/settings-page').then((m) => ({ default: m.SettingsPage })));
const SearchPage = lazy(() => import('./pages/search-page').then((m) => ({ default: m.SearchPage })));
const ApprovalsPage = lazy(() => import('./pages/approvals-page').then((m) => ({ default: m.ApprovalsPage })));
const ApprovalDetailPage = lazy(() => import('./pages/approval-detail-page').then((m) => ({ default: m.ApprovalDetailPage })));
const HelpPage = lazy(() => import('./pages/help-page').then((m) => ({ default: m.HelpPage })));

type FirstPage = { pattern: string; chunks: Array<() => Promise<unknown>> };

/** The pages people open first, by the path they open, for preloadRoute. */
const FIRST_PAGES: FirstPage[] = [
  { pattern: '/login', chunks: [loadLogin] },
  { pattern: '/', chunks: [loadProtectedLayout, loadDashboard] },
  { pattern: '/matters', chunks: [loadProtectedLayout, loadMatters] },
  { pattern: '/matters/:matterId', chunks: [loadProtectedLayout, loadMatterWorkspace] },
];

/**
 * Starts downloading the chunks of the page at `pathname` at once, beside the session check. Without it a signed-in
 * page asks for its chunk only once the shell's chunk has loaded and the session has answered: one round trip after
 * the other. Only starts downloads: the page still renders through the routes below and asks its data as usual.
 * (The page's data is not asked for here: a call that failed before the page mounted would be asked again by the
 * page, and a matter that does not exist must be asked for once.)
 */
export function preloadRoute(pathname: string): void {
  for (const page of FIRST_PAGES) {
    if (!matchPath(page.pattern, pathname)) continue;
    for (const load of page.chunks) void load().catch(() => {}); // a failed download shows when the page renders
    return;
  }
}

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
            <Route path="/vault/disposition" element={<DispositionPage />} />
            <Route path="/search" element={<SearchPage />} />
            <Route path="/audit-logs" element={<AuditLogsPage />} />
            <Route path="/approvals" element={<ApprovalsPage />} />
            <Route path="/approvals/:requestId" element={<ApprovalDetailPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/help" element={<HelpPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
