import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { inputClasses } from '@/components/ui/input';
import { cn } from '@/lib/class-names';

type ReasonFieldProps = { registration: UseFormRegisterReturn; error?: string; hint?: string; label?: string };

/** The reason a change is made, kept in the audit log; its error shows under the field. */
export function ReasonField({ registration, error, hint, label = 'Reason' }: ReasonFieldProps) {
  return (
    <FormField label={label} error={error} hint={hint}>
      {(control) => <textarea {...control} {...registration} rows={3} className={cn(inputClasses, 'h-auto min-h-20 resize-y')} />}
    </FormField>
  );
}
