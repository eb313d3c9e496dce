import { ScrollText } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { useDocumentTitle } from '@/lib/document-title';
import { ComingSoon } from './coming-soon';

export function AuditLogsPage() {
  useDocumentTitle('Audit Logs');
  return (
    <div className="grid gap-8">
      <PageHeader title="Audit Logs" description="A tamper-evident record of what happened and who did it." />
      <ComingSoon
        icon={ScrollText}
        title="Audit logs are coming soon"
        description="Search, filter and export the record of every action taken in your organization."
      />
    </div>
  );
}
