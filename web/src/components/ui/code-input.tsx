import type { ComponentProps } from 'react';
import { LIMITS } from '@strongroom/contracts';
import { cn } from '@/lib/class-names';
import { toCodeDigits } from '@/lib/code-input';
import { inputClasses } from './input';

type CodeInputProps = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type'> & {
  value: string;
  /** Called with digits only, at most 6. */
  onValueChange: (value: string) => void;
};

/** A one-time-code field: numeric keyboard, autofill from SMS/password managers, digits only, capped at 6. */
export function CodeInput({ value, onValueChange, className, ...props }: CodeInputProps) {
  return (
    <input
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={LIMITS.mfaCodeLength}
      spellCheck={false}
      placeholder="000000"
      value={value}
      onChange={(e) => onValueChange(toCodeDigits(e.target.value))}
      onPaste={(e) => {
        // A pasted code with spaces or dashes ("123 456") would be cut by maxLength before onChange runs.
        const pasted = e.clipboardData.getData('text');
        if (pasted) {
          e.preventDefault();
          onValueChange(toCodeDigits(pasted));
        }
      }}
      className={cn(inputClasses, 'h-12 text-center font-mono text-xl tracking-[0.5em] placeholder:tracking-[0.5em] placeholder:text-muted-foreground/50', className)}
      {...props}
    />
  );
}
