import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/class-names';
import { Label } from './label';

type FieldControlProps = {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
};

type FormFieldProps = {
  label: ReactNode;
  /** Shown under the control and read as its description. */
  hint?: ReactNode;
  /** Shown in red under the control; marks the control invalid. */
  error?: string;
  /** Renders the control with the id and ARIA attributes that tie it to the label, hint and error. */
  children: (control: FieldControlProps) => ReactNode;
  /** Extra content at the end of the label row (e.g. a 'Forgot password?' link). */
  labelAside?: ReactNode;
  className?: string;
  id?: string;
};

export function FormField({ label, hint, error, children, labelAside, className, id }: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? `field-${generated}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid gap-2', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={controlId}>{label}</Label>
        {labelAside}
      </div>
      {children({ id: controlId, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
