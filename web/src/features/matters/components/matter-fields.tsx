import { Controller, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input, inputClasses } from '@/components/ui/input';
import { cn } from '@/lib/class-names';
import { PartyAutocomplete } from './party-autocomplete';

import type { MatterFormValues } from './matter-form';

type MatterFieldsProps = {
  control: Control<MatterFormValues>;
  register: UseFormRegister<MatterFormValues>;
  errors: FieldErrors<MatterFormValues>;
  /** Create marks the required fields. */
  mode: 'create' | 'edit';
  /** Create: the number is being generated. */
  numberPending?: boolean;
};

/** The fields shared by the Create New Matter and Edit Matter dialogs. */
export function MatterFields({ control, register, errors, mode, numberPending = false }: MatterFieldsProps) {
  const req = mode === 'create' ? ' *' : '';
  return (
    <>
      <FormField label={`Matter Name${req}`} error={errors.matterName?.message}>
        {(c) => <Input {...c} {...register('matterName')} placeholder="e.g. Smith v. Jones" autoComplete="off" />}
      </FormField>
      <FormField label="Matter Number" hint="Auto-generated but can be edited if needed." error={errors.matterNumber?.message}>
        {(c) => (
          <Input
            {...c}
            {...register('matterNumber')}
            placeholder={mode === 'create' ? (numberPending ? 'Generating...' : 'Generated on save (MAT-YYYY-NNN)') : 'MAT-YYYY-NNN'}
            aria-busy={numberPending || undefined}
            autoComplete="off"
            className="font-mono"
          />
        )}
      </FormField>
      <Controller
        control={control}
        name="clientName"
        render={({ field }) => (
          <FormField label={`Client Name${req}`} error={errors.clientName?.message}>
            {(c) => (
              <PartyAutocomplete
                kind="client"
                {...c}
                value={field.value}
                onValueChange={(v) => field.onChange(v)}
                allowAdd
                placeholder="Search or add a client"
                emptyMessage="No clients found. Type to add a new client."
              />
            )}
          </FormField>
        )}
      />
      <FormField label="Description" error={errors.description?.message}>
        {(c) => (
          <textarea
            {...c}
            {...register('description')}
            rows={3}
            placeholder="What the matter is about"
            className={cn(inputClasses, 'h-auto min-h-20 resize-y')}
          />
        )}
      </FormField>
      <Controller
        control={control}
        name="responsibleLawyer"
        render={({ field }) => (
          <FormField label={`Responsible Attorney${req}`} error={errors.responsibleLawyer?.message}>
            {(c) => (
              <PartyAutocomplete
                kind="lawyer"
                {...c}
                value={field.value}
                onValueChange={(v) => field.onChange(v)}
                allowAdd
                placeholder="Search or add a lawyer"
                emptyMessage="No lawyers found. Type to add a new lawyer."
              />
            )}
          </FormField>
        )}
      />
    </>
  );
}
