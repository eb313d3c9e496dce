import type { ReactNode } from 'react';
import { Eye } from 'lucide-react';
import type { VaultedMatter } from '@/lib/dates';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/class-names';
import type { TableDensity } from '@/lib/table-density';
import { VAULT_SKELETON_ROWS, formatDateTime } from '../lib/vault-format';
import { LegalHoldBadge, RetentionCell, VerificationCell } from './vault-badges';

type VaultCardsProps = {
  matters: VaultedMatter[];
  loading: boolean;
  density: TableDensity;
  onView: (matter: VaultedMatter) => void;
  selectedId: string | null;
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/**
 * The vault list on phones: a card per vaulted matter with what a row of the table shows, and View Details in
 * reach without scrolling sideways.
 */
export function VaultCards({ matters, loading, density, onView, selectedId }: VaultCardsProps) {
  const pad = density === 'compact' ? 'p-3 gap-2' : 'p-4 gap-3';
  if (loading) {
    return (
      <ul aria-label="Vaulted matters" aria-busy="true" className="grid gap-3">
        {Array.from({ length: VAULT_SKELETON_ROWS }, (_, i) => (
          <li key={i} className={cn('grid rounded-lg border border-border bg-card', pad)}>
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-56" />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul aria-label="Vaulted matters" className="grid grid-cols-1 gap-3">
      {matters.map((m) => (
        <li
          key={m.id}
          aria-current={m.id === selectedId || undefined}
          className={cn(
            'grid min-w-0 rounded-lg border border-border bg-card text-sm shadow-xs',
            m.id === selectedId && 'border-primary bg-primary-soft',
            pad,
          )}
        >
          <div className="grid min-w-0 gap-0.5">
            <span className="font-medium break-words">{m.matterName}</span>
            <span className="text-xs break-words text-muted-foreground">{m.clientName ?? 'No client'}</span>
          </div>
          <dl className="grid grid-cols-2 gap-3">
            <Field label="Vaulted At">{formatDateTime(m.vaultedAt)}</Field>
            <Field label="Retention Ends">
              <RetentionCell expiresAt={m.retentionExpiresAt} />
            </Field>
            <Field label="Legal Hold">
              <LegalHoldBadge held={m.legalHold} />
            </Field>
            <Field label="Last verification">
              <VerificationCell verification={m.lastVerification} />
            </Field>
          </dl>
          <Button variant="outline" size="sm" onClick={() => onView(m)} aria-label={`View details of ${m.matterName}`}>
            <Eye aria-hidden="true" />
            View Details
          </Button>
        </li>
      ))}
    </ul>
  );
}
