import { FolderKanban } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { useDocumentTitle } from '@/lib/document-title';
import { ComingSoon } from './coming-soon';

export function MattersPage() {
  useDocumentTitle('Matters');
  return (
    <div className="grid gap-8">
      <PageHeader title="Matters" description="Every case your firm keeps, with its folders and files." />
      <ComingSoon icon={FolderKanban} title="Matters are coming soon" description="Create matters, organise their folders and upload files here." />
    </div>
  );
}
