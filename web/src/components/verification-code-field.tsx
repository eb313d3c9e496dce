import { useId, type Ref } from 'react';
import { CodeInput } from '@/components/ui/code-input';
import { Label } from '@/components/ui/label';

type VerificationCodeFieldProps = {
  value: string;
  onValueChange: (code: string) => void;
  /** The last try failed: the field is marked invalid (the reason is shown by the form, above it). */
  invalid: boolean;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
  autoFocus?: boolean;
  /** Where a screen asks for two codes, each says which it is. */
  label?: string;
};

/** The labelled 6-digit code field every MFA screen asks with: sign-in, setup and the code dialog. */
export function VerificationCodeField({
  value,
  onValueChange,
  invalid,
  inputRef,
  disabled,
  autoFocus,
  label = 'Verification Code',
}: VerificationCodeFieldProps) {
  const inputId = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>{label}</Label>
      <CodeInput
        id={inputId}
        ref={inputRef}
        value={value}
        onValueChange={onValueChange}
        disabled={disabled}
        autoFocus={autoFocus}
        aria-invalid={invalid ? true : undefined}
      />
    </div>
  );
}
