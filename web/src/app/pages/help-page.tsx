import { LifeBuoy } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { useDocumentTitle } from '@/lib/document-title';
import { ComingSoon } from './coming-soon';

export function HelpPage() {
  useDocumentTitle('Help');
  return (
    <div className="grid gap-8">
      <PageHeader title="Help" description="Guides and answers for using Strongroom." />
      <ComingSoon
        icon={LifeBuoy}
        title="Help is coming soon"
        description="Guides for everyday tasks will appear here. Until then, your firm’s administrator can help with access and accounts."
      />
    </div>
  );
}
