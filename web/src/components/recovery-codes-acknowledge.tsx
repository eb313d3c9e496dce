import { useId, useState } from 'react';
import { ArrowRight } from 'lucide-react';
import { RecoveryCodes } from '@/components/recovery-codes';
import { Button } from '@/components/ui/button';

type RecoveryCodesAcknowledgeProps = {
  codes: string[];
  /** Called once the user has said they saved the codes. */
  onContinue: () => void;
  continueLabel?: string;
};

/**
 * The ten recovery codes of a new authenticator, shown this one time (the server keeps only their hashes), with
 * Copy and Download. The user goes on only after ticking 'I have saved these codes': there is no second look.
 */
export function RecoveryCodesAcknowledge({ codes, onContinue, continueLabel = 'Continue' }: RecoveryCodesAcknowledgeProps) {
  const [saved, setSaved] = useState(false);
  const checkboxId = useId();
  const hintId = useId();
  return (
    <div className="grid gap-5">
      <RecoveryCodes codes={codes} />
      <div className="flex items-start gap-3 rounded-lg border border-border p-3">
        <input
          id={checkboxId}
          type="checkbox"
          checked={saved}
          onChange={(e) => setSaved(e.target.checked)}
          aria-describedby={hintId}
          className="mt-0.5 size-4 shrink-0 accent-primary focus-visible:outline-2 focus-visible:outline-ring"
        />
        <div className="grid gap-1">
          <label htmlFor={checkboxId} className="text-sm font-medium">
            I have saved these codes
          </label>
          <p id={hintId} className="text-xs text-muted-foreground">
            They are shown only now. Each code signs you in once if you lose the phone with your authenticator app.
          </p>
        </div>
      </div>
      <Button className="justify-self-end" disabled={!saved} onClick={onContinue}>
        {continueLabel}
        <ArrowRight aria-hidden="true" />
      </Button>
    </div>
  );
}
