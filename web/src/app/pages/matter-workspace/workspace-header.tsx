import type { ReactNode } from 'react';
import { Archive, Lock, Pencil, ShieldCheck, ShieldOff } from 'lucide-react';
import { VAULT_MSG } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';

function Field({ label, value, mono }: { label: string; value: string | null; mono?: boolean }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={mono ? 'truncate font-mono text-sm' : 'truncate text-sm'} title={value ?? undefined}>
        {value ?? <span className="text-muted-foreground italic">—</span>}
      </dd>
    </div>
  );
}

/** A button that cannot be used now, with the reason on hover and keyboard focus. */
function DisabledWithReason({ reason, children }: { reason: string; children: ReactNode }) {
  return (
    <Tooltip content={reason}>
      <span tabIndex={0} className="inline-flex rounded-md focus-visible:outline-2 focus-visible:outline-ring">
        <Button variant="outline" size="sm" disabled>
          {children}
        </Button>
      </span>
    </Tooltip>
  );
}

type WorkspaceHeaderProps = {
  matter: Matter;
  /** Why nothing may change (vaulted, held, retention ended, a read-only person), or null. */
  readOnlyReason: string | null;
  canEdit: boolean;
  isAdmin: boolean;
  canVault: boolean;
  onEdit: () => void;
  onHold: () => void;
  onVault: () => void;
};

/**
 * The matter's name, status and facts, with its actions. The actions wrap onto lines of their own on a narrow
 * screen, so every one stays in reach on a phone.
 */
export function WorkspaceHeader({ matter, readOnlyReason, canEdit, isAdmin, canVault, onEdit, onHold, onVault }: WorkspaceHeaderProps) {
  return (
    <header className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words text-foreground">{matter.matterName}</h1>
        <Badge tone={matter.isVaulted ? 'primary' : 'success'}>{matter.status}</Badge>
        {matter.legalHold ? (
          <Badge tone="danger">
            <Lock aria-hidden="true" />
            Legal Hold
          </Badge>
        ) : null}
        <div className="flex flex-wrap items-center gap-2 sm:ml-auto">
          {isAdmin ? (
            <Button variant="outline" size="sm" onClick={onHold}>
              {matter.legalHold ? <ShieldOff aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
              {matter.legalHold ? 'Remove Legal Hold' : 'Apply Legal Hold'}
            </Button>
          ) : null}
          {canVault && !matter.isVaulted ? (
            matter.legalHold ? (
              <DisabledWithReason reason={VAULT_MSG.vaultHeld}>
                <Archive aria-hidden="true" />
                Vault Matter
              </DisabledWithReason>
            ) : (
              <Button variant="outline" size="sm" onClick={onVault}>
                <Archive aria-hidden="true" />
                Vault Matter
              </Button>
            )
          ) : null}
          {canEdit ? (
            readOnlyReason ? (
              <DisabledWithReason reason={readOnlyReason}>
                <Pencil aria-hidden="true" />
                Edit
              </DisabledWithReason>
            ) : (
              <Button variant="outline" size="sm" onClick={onEdit}>
                <Pencil aria-hidden="true" />
                Edit
              </Button>
            )
          ) : null}
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-4">
        <Field label="Matter Number" value={matter.matterNumber} mono />
        <Field label="Client" value={matter.clientName} />
        <Field label="Responsible Lawyer" value={matter.responsibleLawyer} />
        <Field label="Created" value={new Date(matter.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })} />
      </dl>
      {matter.description ? <p className="line-clamp-2 text-sm text-muted-foreground">{matter.description}</p> : null}
    </header>
  );
}
