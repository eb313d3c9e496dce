import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { changeRoleRequest, ROLE_LABELS, type Role } from '@strongroom/contracts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { ReasonField } from './reason-field';

const reasonForm = changeRoleRequest.pick({ reason: true });
type ReasonForm = { reason: string };

type RoleChangeDialogProps = {
  /** The role chosen in the drawer, or null while the dialog is closed. */
  role: Role | null;
  userName: string;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
};

/**
 * 'Change role to {Role} for {user}?': a role change needs a reason of at least 10 characters for the audit
 * log. Confirming sets the role in the drawer (its switches go to that role's defaults); Save sends it.
 */
export function RoleChangeDialog({ role, userName, onConfirm, onCancel }: RoleChangeDialogProps) {
  return (
    <Dialog open={role !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      <DialogContent className="max-w-md">
        {role ? <RoleChangeForm key={role} role={role} userName={userName} onConfirm={onConfirm} onCancel={onCancel} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function RoleChangeForm({ role, userName, onConfirm, onCancel }: RoleChangeDialogProps & { role: Role }) {
  const form = useForm<ReasonForm>({ resolver: zodResolver(reasonForm), defaultValues: { reason: '' } });
  const onSubmit = form.handleSubmit((v) => onConfirm(v.reason.trim()));
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>
          Change role to {ROLE_LABELS[role].label} for {userName}?
        </DialogTitle>
        <DialogDescription>
          {ROLE_LABELS[role].description} The permissions are reset to this role&apos;s defaults; you can adjust them before saving.
        </DialogDescription>
      </DialogHeader>
      <ReasonField registration={form.register('reason')} error={form.formState.errors.reason?.message} />
      <DialogActions onCancel={onCancel} submitLabel="Change Role" pendingLabel="" pending={false} />
    </form>
  );
}
