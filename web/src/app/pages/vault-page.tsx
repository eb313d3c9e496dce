import { Archive } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { useDocumentTitle } from '@/lib/document-title';
import { ComingSoon } from './coming-soon';

export function VaultPage() {
  useDocumentTitle('Vault');
  return (
    <div className="grid gap-8">
      <PageHeader title="Vault" description="Matters kept read-only in long-term storage." />
      <ComingSoon
        icon={Archive}
        title="The vault is coming soon"
        description="Vaulted matters, their retention and legal holds will be reviewed here."
      />
    </div>
  );
}
