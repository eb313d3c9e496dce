import { Suspense, useState, type ReactNode } from 'react';
import type { SessionResponse, SessionUser } from '@strongroom/contracts';
import type { WithDates } from '@/lib/dates';
import { Badge } from '@/components/ui/badge';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { TooltipProvider } from '@/components/ui/tooltip';
import { useApprovalsWaitingCount } from '@/features/approvals/api/approvals';
import { ApprovalWaitingHost } from '@/features/approvals/components/approval-waiting-dialog';
import { shows } from '@/lib/access-visibility';
import { PageFallback } from '../page-fallback';
import { SessionExpiryNotice } from './session-expiry-notice';
import { SideNav } from './side-nav';
import { TopBar } from './top-bar';

type AppShellProps = {
  user: SessionUser;
  session: WithDates<SessionResponse>['session'] | null;
  onLogout: () => void;
  children: ReactNode;
};

const ROLE_LABELS: Record<SessionUser['role'], string> = { admin: 'Admin', user: 'User', guest: 'Guest' };

function OrganizationFooter({ user }: { user: SessionUser }) {
  return (
    <div className="grid gap-1.5 rounded-lg border border-border bg-card px-3 py-2.5">
      <p className="truncate text-sm font-medium" title={user.organizationName}>
        {user.organizationName}
      </p>
      <div className="flex items-center gap-2">
        <Badge tone={user.role === 'admin' ? 'primary' : 'neutral'}>{ROLE_LABELS[user.role]}</Badge>
        {user.mfaEnabled ? <span className="text-xs text-muted-foreground">MFA on</span> : null}
      </div>
    </div>
  );
}

/** The signed-in frame: top bar, side navigation (a drawer below 1024 px), content, session-expiry notice. */
export function AppShell({ user, session, onLogout, children }: AppShellProps) {
  const [navOpen, setNavOpen] = useState(false);
  const showApprovals = shows(user, 'approvalsPage');
  const waiting = useApprovalsWaitingCount(showApprovals);
  const approvals = showApprovals ? { waitingForYou: waiting.data ?? 0 } : null;
  return (
    <TooltipProvider delayDuration={300}>
      <div className="min-h-dvh bg-background">
        <a
          href="#main-content"
          className="sr-only z-[70] rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to content
        </a>
        <TopBar user={user} onOpenNavigation={() => setNavOpen(true)} onLogout={onLogout} />
        <div className="flex">
          <aside className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-60 shrink-0 flex-col justify-between gap-4 overflow-y-auto border-r border-border bg-sidebar p-3 lg:flex">
            <SideNav role={user.role} approvals={approvals} />
            <OrganizationFooter user={user} />
          </aside>
          <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-10 lg:py-8">
            <div className="mx-auto w-full max-w-6xl">
              <Suspense fallback={<PageFallback />}>{children}</Suspense>
            </div>
          </main>
        </div>
        <Sheet open={navOpen} onOpenChange={setNavOpen}>
          <SheetContent side="left" closeLabel="Close navigation" className="justify-between">
            <div className="grid gap-5">
              <SheetHeader>
                <SheetTitle>Strongroom</SheetTitle>
                <SheetDescription className="sr-only">Main navigation</SheetDescription>
              </SheetHeader>
              <SideNav role={user.role} approvals={approvals} onNavigate={() => setNavOpen(false)} />
            </div>
            <OrganizationFooter user={user} />
          </SheetContent>
        </Sheet>
        <SessionExpiryNotice expiresAt={session?.expiresAt} />
        <ApprovalWaitingHost canOpenRequest={shows(user, 'approvalRequest')} />
      </div>
    </TooltipProvider>
  );
}
