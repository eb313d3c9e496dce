import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';

type ComingSoonProps = { icon: LucideIcon; title: string; description: ReactNode };

/** The card a page shows until its feature is built: clearly marked as coming. */
export function ComingSoon({ icon, title, description }: ComingSoonProps) {
  return (
    <Card className="border-dashed">
      <EmptyState
        icon={icon}
        title={title}
        description={description}
        action={<Badge tone="primary">Coming soon</Badge>}
        className="py-16"
        titleAs="p"
      />
    </Card>
  );
}
