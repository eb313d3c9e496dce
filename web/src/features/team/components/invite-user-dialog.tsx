import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from '@/lib/toast';
import { inviteUserRequest, MSG, TEAM_MSG, type Role } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { useInviteUser } from '../api/invite-user';

const inviteForm = inviteUserRequest.omit({ mfaToken: true });
type InviteForm = { email: string; role: Role };

const ROLE_OPTIONS: { value: Role; label: string; description: string }[] = [
  { value: 'user', label: 'User', description: 'Standard access: upload and download files.' },
  { value: 'guest', label: 'Guest', description: 'Limited, read-only access to the matters shared with them.' },
  { value: 'admin', label: 'Admin', description: 'Full access, including user management.' },
];

type InviteUserDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * The roles the viewer may invite (invitableRoles: an admin any; a user managing users, users and guests; a
   * user who may only invite, guests).
   */
  roles: readonly Role[];
};

/** Invite a person to the organization by email with a role (POST /_api/settings/users/invite). */
export function InviteUserDialog({ open, onOpenChange, roles: allowed }: InviteUserDialogProps) {
  const invite = useInviteUser();
  const [formError, setFormError] = useState<string | null>(null);
  const roles = ROLE_OPTIONS.filter((r) => allowed.includes(r.value));
  const defaultRole: Role = allowed.includes('user') ? 'user' : (allowed[0] ?? 'guest');
  const form = useForm<InviteForm>({
    resolver: zodResolver(inviteForm),
    defaultValues: { email: '', role: defaultRole },
  });
  const { errors } = form.formState;
  const role = useWatch({ control: form.control, name: 'role' });

  const close = (next: boolean) => {
    if (!next) {
      form.reset({ email: '', role: defaultRole });
      setFormError(null);
      invite.reset();
    }
    onOpenChange(next);
  };

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    invite.mutate(values, {
      onSuccess: (res) => {
        toast.success(res.message);
        close(false);
      },
      onError: (err) => {
        // Closing the MFA dialog is a choice, not a failure: say what is needed without alarm.
        setFormError(isMfaCancelledError(err) ? MSG.mfaRequired : errorMessage(err));
      },
    });
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-md">
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Invite New Team Member</DialogTitle>
            <DialogDescription>They will get an email with a link to create their account and join your organization.</DialogDescription>
          </DialogHeader>
          {formError ? <Alert tone={invite.error && isMfaCancelledError(invite.error) ? 'warning' : 'danger'}>{formError}</Alert> : null}
          <FormField label="Email" error={errors.email?.message}>
            {(control) => (
              <Input {...control} {...form.register('email')} type="email" autoComplete="off" placeholder="colleague@firm.com" />
            )}
          </FormField>
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <FormField label="Role" error={errors.role?.message} hint={roles.find((r) => r.value === field.value)?.description}>
                {(control) => (
                  <Select value={field.value} onValueChange={(v) => field.onChange(v as Role)}>
                    <SelectTrigger {...control} onBlur={field.onBlur} ref={field.ref}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {roles.map((r) => (
                        <SelectItem key={r.value} value={r.value}>
                          {r.label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              </FormField>
            )}
          />
          {/* What a guest will see, said before they are invited: nothing until a matter is shared with them. */}
          {role === 'guest' ? <Alert tone="info">{TEAM_MSG.guestNoGrants}</Alert> : null}
          <DialogActions onCancel={() => close(false)} submitLabel="Send Invitation" pendingLabel="Sending..." pending={invite.isPending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
