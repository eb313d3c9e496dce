import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Archive, Building2, ShieldCheck, User, Users } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { sessionQueryKey, useSession } from '@/features/auth/api/get-session';
import { SecuritySettings } from '@/features/feature-flags/components/feature-flags-panel';
import { SecurityToolingSection } from '@/features/security-tooling/components/security-tooling-section';
import { OrganizationTab } from '@/features/settings/components/organization-tab';
import { ProfileTab } from '@/features/settings/components/profile-tab';
import { RetentionTab } from '@/features/settings/components/retention-tab';
import { TeamPermissionsTab } from '@/features/team/components/team-permissions-tab';
import { useDocumentTitle } from '@/lib/document-title';

const TABS = ['profile', 'organization', 'team', 'security', 'retention'] as const;
type SettingsTab = (typeof TABS)[number];

function isTab(value: string | null): value is SettingsTab {
  return (TABS as readonly (string | null)[]).includes(value);
}

/**
 * Settings: Profile (the default), Organization, Team & Permissions, Security (administrators only) and
 * Retention & Vault. The open tab is kept in the address (?tab=) so a reload or a shared link opens it again.
 */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const user = session.data?.user ?? null;
  const isAdmin = user?.role === 'admin';
  const requested = params.get('tab');
  // The Security tab is disabled for anyone but an administrator: a link to it opens the Profile tab instead.
  const tab: SettingsTab = isTab(requested) && (requested !== 'security' || isAdmin || session.isPending) ? requested : 'profile';

  const selectTab = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === 'profile') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  const refreshSession = () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey });

  return (
    // One column that never grows past the screen: the tab strip scrolls sideways on a phone instead of widening the page.
    <div className="grid grid-cols-1 gap-8">
      <PageHeader title="Settings" description="Your account and your organization." />
      <Tabs value={tab} onValueChange={selectTab}>
        <div className="overflow-x-auto pb-1">
          <TabsList aria-label="Settings sections" className="min-w-max">
            <TabsTrigger value="profile">
              <User aria-hidden="true" />
              Profile
            </TabsTrigger>
            <TabsTrigger value="organization">
              <Building2 aria-hidden="true" />
              Organization
            </TabsTrigger>
            <TabsTrigger value="team">
              <Users aria-hidden="true" />
              Team &amp; Permissions
            </TabsTrigger>
            <TabsTrigger value="security" disabled={!isAdmin}>
              <ShieldCheck aria-hidden="true" />
              Security
            </TabsTrigger>
            <TabsTrigger value="retention">
              <Archive aria-hidden="true" />
              Retention &amp; Vault
            </TabsTrigger>
          </TabsList>
        </div>
        <TabsContent value="profile" className="mt-6">
          {user ? <ProfileTab userId={user.id} onSessionChange={refreshSession} /> : null}
        </TabsContent>
        <TabsContent value="organization" className="mt-6">
          <OrganizationTab />
        </TabsContent>
        <TabsContent value="team" className="mt-6">
          {user ? <TeamPermissionsTab viewer={user} /> : null}
        </TabsContent>
        <TabsContent value="security" className="mt-6">
          <SecuritySettings authLoading={session.isPending} isAdmin={isAdmin} organizationId={user?.organizationId} />
          {isAdmin ? <SecurityToolingSection /> : null}
        </TabsContent>
        <TabsContent value="retention" className="mt-6">
          <RetentionTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
