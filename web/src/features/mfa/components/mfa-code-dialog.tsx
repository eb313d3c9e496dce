import { useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Mail, ShieldCheck } from 'lucide-react';
import { MSG } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { errorMessage, isApiError, isMfaRequiredError } from '@/lib/api-error';
import { isCompleteCode } from '@/lib/code-input';
import { useSendMfaEmail } from '../api/send-mfa-email';
import { PasskeyStepUpButton } from './passkey-step-up-button';
import { VerificationCodeField } from '@/components/verification-code-field';

export type MfaCodeDialogProps = {
  open: boolean;
  /** Changes with each new request, so a new request never shows the previous one's code or error. */
  requestKey: string | number | null;
  title: string;
  description: ReactNode;
  /** Resolves when the code was accepted; throws to keep the dialog open with the error. */
  onSubmitCode: (code: string) => Promise<void>;
  onCancel: () => void;
  /** Offers 'Send code by email' for this user (their MFA method is email). */
  emailUserId?: number;
  /** Offers 'Use a passkey' for this step-up's operation (the server said a passkey serves it). */
  passkeyOperation?: string;
  /** Takes the token a passkey bought, where it is not sent like a code (the system prompt keeps it); else onSubmitCode. */
  onPasskeyToken?: (token: string) => Promise<void>;
};

/**
 * The 6-digit code dialog shared by the sensitive-action MFA dialog and the system MFA prompt. What was typed,
 * the error and the email notice live in the form inside, which closing unmounts and a new request replaces
 * (keyed by requestKey): a dialog opened again, or opened for another request, always starts empty.
 */
export function MfaCodeDialog({ open, requestKey, onCancel, ...form }: MfaCodeDialogProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onCancel())}>
      <DialogContent
        className="max-w-md"
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          inputRef.current?.focus();
        }}
      >
        <MfaCodeForm key={requestKey ?? ''} {...form} onCancel={onCancel} inputRef={inputRef} />
      </DialogContent>
    </Dialog>
  );
}

/**
 * Why a code was not accepted. A refused code comes back as another MFA demand: say it is wrong instead of asking
 * again. The server's own refusal (a 4xx with its text) is shown as it is. Anything else (no answer, a server
 * fault, an unexpected failure) says nothing about the code: 'Authentication error. Please try again.'
 */
function codeFailureText(err: unknown): string {
  if (isMfaRequiredError(err)) return MSG.invalidCode;
  if (isApiError(err) && err.status >= 400 && err.status < 500) return errorMessage(err, MSG.dialogVerificationFailed);
  return MSG.dialogAuthError;
}

type MfaCodeFormProps = Omit<MfaCodeDialogProps, 'open' | 'requestKey'> & { inputRef: RefObject<HTMLInputElement | null> };

function MfaCodeForm({
  title,
  description,
  onSubmitCode,
  onPasskeyToken,
  onCancel,
  emailUserId,
  passkeyOperation,
  inputRef,
}: MfaCodeFormProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [emailNotice, setEmailNotice] = useState<string | null>(null);
  const sendEmail = useSendMfaEmail();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!isCompleteCode(code) || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      await onSubmitCode(code);
    } catch (err) {
      setError(codeFailureText(err));
      setCode('');
      setSubmitting(false);
      inputRef.current?.focus();
      return;
    }
    setSubmitting(false);
  };

  const requestEmail = () => {
    if (emailUserId === undefined) return;
    setEmailNotice(null);
    setError(null);
    sendEmail.mutate(emailUserId, {
      onSuccess: (res) => {
        setEmailNotice(res.message || MSG.emailCodeSent);
        inputRef.current?.focus();
      },
      onError: (err) => setError(errorMessage(err, MSG.emailSendFailed)),
    });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-5">
      <DialogHeader>
        <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
          <ShieldCheck aria-hidden="true" className="size-5" />
        </div>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      {emailNotice ? <Alert tone="success">{emailNotice}</Alert> : null}
      <VerificationCodeField value={code} onValueChange={setCode} invalid={error !== null} inputRef={inputRef} />
      {emailUserId !== undefined ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={requestEmail}
          loading={sendEmail.isPending}
          loadingText="Sending..."
          className="justify-self-start"
        >
          <Mail aria-hidden="true" />
          Send code by email
        </Button>
      ) : null}
      {passkeyOperation !== undefined ? (
        <PasskeyStepUpButton
          operation={passkeyOperation}
          disabled={submitting}
          onError={setError}
          onToken={async (token) => {
            setError(null);
            try {
              await (onPasskeyToken ?? onSubmitCode)(token);
            } catch (err) {
              setError(codeFailureText(err));
            }
          }}
        />
      ) : null}
      <DialogActions
        onCancel={onCancel}
        submitLabel="Verify"
        pendingLabel="Verifying..."
        pending={submitting}
        disabled={!isCompleteCode(code)}
      />
    </form>
  );
}
