import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  SECURITY_TOOLING_MSG,
  securityPolicyDefinition,
  securityPolicyInput,
  type SecurityPolicy,
  type SecurityPolicyDefinition,
} from '@strongroom/contracts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useManagePolicy } from '../api/security-policies';

/** The definition is edited as JSON text: a map of keys to text, number or true/false. */
const formSchema = securityPolicyInput.pick({ name: true, description: true }).extend({
  definition: z.string().refine(
    (raw) => {
      try {
        return securityPolicyDefinition.safeParse(raw.trim() === '' ? {} : JSON.parse(raw)).success;
      } catch {
        return false;
      }
    },
    { error: SECURITY_TOOLING_MSG.policyDefinition },
  ),
  isActive: z.boolean(),
});
type FormValues = z.infer<typeof formSchema>;

type PolicyDialogProps = {
  /** null: a new policy. */
  policy: SecurityPolicy | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

export function PolicyDialog({ policy, open, onOpenChange }: PolicyDialogProps) {
  const manage = useManagePolicy();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    values: {
      name: policy?.name ?? '',
      description: policy?.description ?? '',
      definition: JSON.stringify(policy?.definition ?? { minRetentionYears: 7, requireMfa: true }, null, 2),
      isActive: policy?.isActive ?? true,
    },
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit((values) => {
    setServerError(null);
    const definition = (values.definition.trim() === '' ? {} : JSON.parse(values.definition)) as SecurityPolicyDefinition;
    const body = policy
      ? {
          operation: 'update' as const,
          policyName: policy.name,
          policy: { name: values.name, description: values.description, definition, isActive: values.isActive, version: policy.version },
        }
      : {
          operation: 'create' as const,
          policy: { name: values.name, description: values.description, definition, isActive: values.isActive },
        };
    manage.mutate(body, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onOpenChange(false);
      },
      onError: (error) => {
        if (!isMfaCancelledError(error)) setServerError(errorMessage(error));
      },
    });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{policy ? `Edit policy ${policy.name}` : 'New security policy'}</DialogTitle>
          <DialogDescription>
            Keys the compliance check reads: minRetentionYears, requireMfa, adminSignInReviewDays, archiveAfterDays, vaultSampleSize.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" noValidate onSubmit={(e) => void submit(e)}>
          <FormField label="Name" error={errors.name?.message} hint="3 to 100 letters, digits or underscores.">
            {(control) => <Input {...control} {...form.register('name')} autoComplete="off" />}
          </FormField>
          <FormField label="Description" error={errors.description?.message}>
            {(control) => <Input {...control} {...form.register('description')} autoComplete="off" />}
          </FormField>
          <FormField label="Definition (JSON)" error={errors.definition?.message}>
            {(control) => (
              <textarea
                {...control}
                {...form.register('definition')}
                rows={6}
                spellCheck={false}
                className="w-full rounded-md border border-input bg-card px-3 py-2 font-mono text-xs text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger"
              />
            )}
          </FormField>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...form.register('isActive')} />
            Active
          </label>
          {serverError ? (
            <p role="alert" className="text-sm text-danger">
              {serverError}
            </p>
          ) : null}
          <DialogActions
            onCancel={() => onOpenChange(false)}
            submitLabel={policy ? 'Save policy' : 'Create policy'}
            pendingLabel="Saving..."
            pending={manage.isPending}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
