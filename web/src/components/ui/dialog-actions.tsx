import type { ReactNode } from 'react';
import { Button, type ButtonProps } from './button';
import { DialogFooter } from './dialog';

type DialogActionsProps = {
  onCancel: () => void;
  /** The main button's text, and the text it shows while the action runs. */
  submitLabel: ReactNode;
  pendingLabel: string;
  pending: boolean;
  disabled?: boolean;
  variant?: ButtonProps['variant'];
  /** Without it the main button submits the surrounding form; with it the button runs this instead. */
  onSubmit?: () => void;
};

/** A dialog's footer: Cancel, then the one action the dialog exists for. */
export function DialogActions({ onCancel, submitLabel, pendingLabel, pending, disabled, variant, onSubmit }: DialogActionsProps) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      <Button
        type={onSubmit ? 'button' : 'submit'}
        variant={variant}
        onClick={onSubmit}
        disabled={disabled}
        loading={pending}
        loadingText={pendingLabel}
      >
        {submitLabel}
      </Button>
    </DialogFooter>
  );
}
