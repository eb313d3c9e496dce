import { useState } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { type SecurityPolicy } from '@strongroom/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useManagePolicy, useSecurityPolicies } from '../api/security-policies';
import { toastFailure } from '../lib/toast-failure';
import { PolicyDialog } from './policy-dialog';
import { ToolingPart } from './tooling-part';

/** Security policies: the versioned rules the compliance check applies, created, edited and deleted (after a confirmation) here. */
export function SecurityPoliciesPart() {
  const policies = useSecurityPolicies();
  const manage = useManagePolicy();
  const [editing, setEditing] = useState<{ policy: SecurityPolicy | null } | null>(null);
  const [deleting, setDeleting] = useState<SecurityPolicy | null>(null);

  const remove = () => {
    if (!deleting) return;
    manage.mutate(
      { operation: 'delete', policyName: deleting.name },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          setDeleting(null);
        },
        onError: toastFailure,
      },
    );
  };

  return (
    <ToolingPart title="Security policies" description="Versioned rules the compliance check applies; every change is audited.">
      <div>
        <Button variant="outline" onClick={() => setEditing({ policy: null })}>
          <Plus aria-hidden="true" />
          New policy
        </Button>
      </div>
      {policies.isPending ? (
        <div className="grid gap-2" aria-busy="true">
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-full" />
        </div>
      ) : policies.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(policies.error)}
        </p>
      ) : policies.data.policies.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No security policies yet. Without one the compliance check uses Strongroom's defaults.
        </p>
      ) : (
        <Table aria-label="Security policies">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Name</TableHead>
              <TableHead>Description</TableHead>
              <TableHead>Version</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {policies.data.policies.map((p) => (
              <TableRow key={p.id}>
                <TableCell className="font-mono text-xs">{p.name}</TableCell>
                <TableCell className="text-sm">{p.description}</TableCell>
                <TableCell>v{p.version}</TableCell>
                <TableCell>
                  <Badge tone={p.isActive ? 'success' : 'neutral'}>{p.isActive ? 'Active' : 'Inactive'}</Badge>
                </TableCell>
                <TableCell className="text-right whitespace-nowrap">
                  <Button variant="ghost" size="icon-sm" aria-label={`Edit policy ${p.name}`} onClick={() => setEditing({ policy: p })}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <Button variant="ghost" size="icon-sm" aria-label={`Delete policy ${p.name}`} onClick={() => setDeleting(p)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <PolicyDialog policy={editing?.policy ?? null} open={editing !== null} onOpenChange={(o) => (o ? null : setEditing(null))} />
      <Dialog open={deleting !== null} onOpenChange={(o) => (o ? null : setDeleting(null))}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete policy {deleting?.name}?</DialogTitle>
            <DialogDescription>The compliance check stops applying it. The deletion is recorded in the audit log.</DialogDescription>
          </DialogHeader>
          <DialogActions
            onCancel={() => setDeleting(null)}
            onSubmit={remove}
            submitLabel="Delete policy"
            pendingLabel="Deleting..."
            pending={manage.isPending}
            variant="destructive"
          />
        </DialogContent>
      </Dialog>
    </ToolingPart>
  );
}
