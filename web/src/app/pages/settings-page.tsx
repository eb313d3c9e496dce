import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Archive, Building2, ShieldCheck, User, Users } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { sessionQueryKey, useSession } from '@/features/auth/api/get-session';
import { ApprovalRulesCard } from '@/features/approvals/components/approval-rules-card';
import { SecuritySettings } from '@/features/feature-flags/components/feature-flags-panel';
import { SecurityToolingSection } from '@/features/security-tooling/components/security-tooling-section';
import { OrganizationTab } from '@/features/settings/components/organization-tab';
import { SearchSettingsSection } from '@/features/search/components/search-settings-section';
import { PasskeysCard } from '@/features/passkeys/components/passkeys-card';
import { ProfileTab } from '@/features/settings/components/profile-tab';
import { RetentionTab } from '@/features/settings/components/retention-tab';
import { TeamPermissionsTab } from '@/features/team/components/team-permissions-tab';
import { SsoLinkCard } from '@/features/sso/components/sso-link-card';
import { SsoSettingsCard } from '@/features/sso/components/sso-settings-card';
import { useDocumentTitle } from '@/lib/document-title';
import { shows } from '@/lib/access-visibility';

const TABS = ['profile', 'organization', 'team', 'security', 'retention'] as const;
type SettingsTab = (typeof TABS)[number];

function isTab(value: string | null): value is SettingsTab {
  return (TABS as readonly (string | null)[]).includes(value);
}

/**
 * Settings: Profile (the default), Organization (with Document search for administrators), Team & Permissions, Security (administrators only) and
 * Retention & Vault, each offered only to whom its calls answer (a guest gets Profile alone). The open tab is
 * kept in the address (?tab=) so a reload or a shared link opens it again.
 */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const user = session.data?.user ?? null;
  const isAdmin = user ? shows(user, 'securitySettings') : false;
  // Which tabs this person gets, by the same rules the server applies to the calls behind them: a guest has only
  // Profile (their details, password, second factor and recovery codes); a user who can neither manage nor invite
  // people has no Team tab (there is no list they may read); Security is shown, disabled, to members only.
  const offered = (t: SettingsTab): boolean => {
    if (!user) return true;
    if (t === 'organization') return shows(user, 'organizationTab');
    if (t === 'team') return shows(user, 'teamTab');
    if (t === 'security') return user.role !== 'guest';
    if (t === 'retention') return shows(user, 'retentionTab');
    return true;
  };
  const requested = params.get('tab');
  // A link to a tab this person does not get (or the disabled Security tab) opens the Profile tab instead.
  const tab: SettingsTab =
    isTab(requested) && offered(requested) && (requested !== 'security' || isAdmin || session.isPending) ? requested : 'profile';

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
            {offered('organization') ? (
              <TabsTrigger value="organization">
                <Building2 aria-hidden="true" />
                Organization
              </TabsTrigger>
            ) : null}
            {offered('team') ? (
              <TabsTrigger value="team">
                <Users aria-hidden="true" />
                Team &amp; Permissions
              </TabsTrigger>
            ) : null}
            {offered('security') ? (
              <TabsTrigger value="security" disabled={!isAdmin}>
                <ShieldCheck aria-hidden="true" />
                Security
              </TabsTrigger>
            ) : null}
            {offered('retention') ? (
              <TabsTrigger value="retention">
                <Archive aria-hidden="true" />
                Retention &amp; Vault
              </TabsTrigger>
            ) : null}
          </TabsList>
        </div>
        <TabsContent value="profile" className="mt-6">
          {user ? (
            <ProfileTab
              userId={user.id}
              onSessionChange={refreshSession}
              passkeys={<PasskeysCard isAdmin={shows(user, 'passkeyPolicy')} />}
            />
          ) : null}
          {user ? (
            <div className="mt-6">
              <SsoLinkCard />
            </div>
          ) : null}
        </TabsContent>
        <TabsContent value="organization" className="mt-6 grid gap-6">
          <OrganizationTab />
          {isAdmin ? <SearchSettingsSection /> : null}
        </TabsContent>
        <TabsContent value="team" className="mt-6">
          {user ? <TeamPermissionsTab viewer={user} /> : null}
        </TabsContent>
        <TabsContent value="security" className="mt-6">
          <SecuritySettings authLoading={session.isPending} isAdmin={isAdmin} organizationId={user?.organizationId} />
          {user && shows(user, 'approvalRules') ? (
            <div className="mt-6">
              <ApprovalRulesCard />
            </div>
          ) : null}
          {user && shows(user, 'ssoSettings') ? (
            <div className="mt-6">
              <SsoSettingsCard />
            </div>
          ) : null}
          {isAdmin ? <SecurityToolingSection /> : null}
        </TabsContent>
        <TabsContent value="retention" className="mt-6">
          <RetentionTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
