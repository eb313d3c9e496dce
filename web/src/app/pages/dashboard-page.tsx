import { Link } from 'react-router';
import { Archive, ArrowRight, FolderKanban, LayoutDashboard, ScrollText, type LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { useCurrentUser } from '@/features/auth/hooks/use-current-user';
import { useDocumentTitle } from '@/lib/document-title';
import { ComingSoon } from './coming-soon';

const SHORTCUTS: { to: string; label: string; text: string; icon: LucideIcon }[] = [
  { to: '/matters', label: 'Matters', text: 'Cases with their folders and files.', icon: FolderKanban },
  { to: '/vault', label: 'Vault', text: 'Matters kept under retention.', icon: Archive },
  { to: '/audit-logs', label: 'Audit Logs', text: 'What happened, and who did it.', icon: ScrollText },
];

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const user = useCurrentUser();
  const firstName = user?.displayName.trim().split(/\s+/)[0];
  return (
    <div className="grid gap-8">
      <PageHeader
        title="Dashboard"
        description={firstName ? `Welcome back, ${firstName}. This is ${user?.organizationName}’s archive.` : 'Welcome back.'}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        {SHORTCUTS.map(({ to, label, text, icon: Icon }) => (
          <Link
            key={to}
            to={to}
            className="group rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <Card className="flex h-full items-start gap-4 p-5 transition-colors group-hover:border-primary/50 group-hover:bg-accent/40">
              <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary-soft-foreground">
                <Icon aria-hidden="true" className="size-5" />
              </div>
              <div className="grid min-w-0 gap-1">
                <h2 className="flex items-center gap-1.5 font-semibold">
                  {label}
                  <ArrowRight
                    aria-hidden="true"
                    className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5"
                  />
                </h2>
                <p className="text-sm text-muted-foreground">{text}</p>
              </div>
            </Card>
          </Link>
        ))}
      </div>
      <ComingSoon
        icon={LayoutDashboard}
        title="Dashboard widgets are coming soon"
        description="Recent matters, activity, vault status and storage use will appear here."
      />
    </div>
  );
}
