import type { ComponentProps } from 'react';
import { cn } from '@/lib/class-names';
import { toCodeDigits } from '@/lib/code-input';
import { inputClasses } from './input';

type CodeInputProps = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type'> & {
  value: string;
  /** Called with digits only, at most 6. */
  onValueChange: (value: string) => void;
};

/**
 * A one-time-code field: numeric keyboard, autofill from SMS/password managers, digits only, capped at 6.
 * No maxLength attribute: it would cut a pasted '123 456' before the non-digits are stripped.
 */
export function CodeInput({ value, onValueChange, className, ...props }: CodeInputProps) {
  return (
    <input
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      spellCheck={false}
      placeholder="000000"
      value={value}
      onChange={(e) => onValueChange(toCodeDigits(e.target.value))}
      className={cn(
        inputClasses,
        'h-12 text-center font-mono text-xl tracking-[0.5em] placeholder:tracking-[0.5em] placeholder:text-muted-foreground/50',
        className,
      )}
      {...props}
    />
  );
}
