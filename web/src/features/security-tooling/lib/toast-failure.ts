import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';

/** A failed tooling call shows its error as a toast; a second-factor prompt the person cancelled shows nothing. */
export function toastFailure(error: unknown): void {
  if (!isMfaCancelledError(error)) toast.error(errorMessage(error));
}
