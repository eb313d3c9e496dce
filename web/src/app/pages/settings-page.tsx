import { Settings } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { useDocumentTitle } from '@/lib/document-title';
import { ComingSoon } from './coming-soon';

export function SettingsPage() {
  useDocumentTitle('Settings');
  return (
    <div className="grid gap-8">
      <PageHeader title="Settings" description="Your account and your organization." />
      <ComingSoon
        icon={Settings}
        title="Settings are coming soon"
        description="Your profile, password and MFA, and for administrators the team, organization and retention settings."
      />
    </div>
  );
}
