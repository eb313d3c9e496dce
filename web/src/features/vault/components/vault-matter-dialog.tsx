import { useEffect, useEffectEvent, useId, useState } from 'react';
import { Archive, CheckCircle2, Circle, Loader2, Lock, ShieldCheck } from 'lucide-react';
import { VAULT_LIMITS, VAULT_MSG } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { isApprovalRequiredError } from '@/lib/approval-required';
import { toast } from '@/lib/toast';
import { useDefaultRetention } from '../api/get-default-retention';
import { useStartVault } from '../api/start-vault';

type Step = 'confirm' | 'processing' | 'success';

/** The processing step shows a fixed 75% bar: the transfer itself runs on the server afterwards. */
const PROCESSING_PERCENT = 75;
const PROCESSING_STEPS = ['Matter marked as vaulted', 'Legal hold applied', 'Transferring files to cold storage...'] as const;

const years = (n: number) => `${n} year${n === 1 ? '' : 's'}`;

type VaultMatterDialogProps = { matter: Matter; open: boolean; onOpenChange: (open: boolean) => void };

/** Vault Matter: choose the retention, then the matter is vaulted (with a fresh second-factor code). */
export function VaultMatterDialog({ matter, open, onOpenChange }: VaultMatterDialogProps) {
  // The steps mount with each opening, so every opening starts at the confirm step.
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <VaultSteps matter={matter} onClose={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function VaultSteps({ matter, onClose }: { matter: Matter; onClose: () => void }) {
  const start = useStartVault();
  const orgDefault = useDefaultRetention(true);
  const [chosen, setChosen] = useState<number | null>(null);
  const [step, setStep] = useState<Step>('confirm');
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const selectId = useId();

  // The organization's default retention when the settings answer it, else the recommended 7 years.
  const defaultYears = orgDefault.data ?? VAULT_LIMITS.retentionDefault;
  const retention = chosen ?? defaultYears;
  const choices: number[] = [...VAULT_LIMITS.retentionChoices];
  if (!choices.includes(defaultYears)) choices.push(defaultYears);
  choices.sort((a, b) => a - b);

  // The success step closes the dialog after 2 s; the views have been refreshed by then.
  const closeNow = useEffectEvent(onClose);
  useEffect(() => {
    if (step !== 'success') return;
    const t = setTimeout(() => closeNow(), VAULT_LIMITS.successCloseMs);
    return () => clearTimeout(t);
  }, [step]);

  const vault = () => {
    setFailure(null);
    setStep('processing');
    start.mutate(
      { matterId: matter.id, retentionYears: retention },
      {
        onSuccess: (answer) => {
          toast.success(answer.message || VAULT_MSG.vaultStarted);
          setDone(retention);
          setStep('success');
        },
        onError: (err) => {
          setStep('confirm');
          // Recorded for a second administrator: nothing is vaulted yet. The waiting dialog says so; this one closes.
          if (isApprovalRequiredError(err)) return onClose();
          // Closing the code dialog is the user's choice: back to confirm, nothing to report.
          if (isMfaCancelledError(err)) return;
          const text = errorMessage(err, VAULT_MSG.vaultFailed);
          setFailure(text);
          toast.error(text);
        },
      },
    );
  };

  // While the call runs, the dialog stays open: its answer decides the next step.
  const busy = step === 'processing';
  const holdOpen = (e: Event) => {
    if (busy) e.preventDefault();
  };

  return (
    <DialogContent className="max-w-lg" hideClose={busy} onEscapeKeyDown={holdOpen} onInteractOutside={holdOpen}>
      {step === 'confirm' ? (
        <div className="grid gap-5">
          <DialogHeader>
            <DialogTitle className="flex items-center gap-2">
              <Archive aria-hidden="true" className="size-5 text-primary" />
              Vault Matter
            </DialogTitle>
            <DialogDescription>{matter.matterName} moves into write-once cold storage. This cannot be undone.</DialogDescription>
          </DialogHeader>
          {failure ? <Alert tone="danger">{failure}</Alert> : null}
          <ul className="grid gap-2 text-sm">
            <li className="flex gap-2">
              <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
              The matter becomes read-only: no edits, uploads, new folders, renames, moves or deletions.
            </li>
            <li className="flex gap-2">
              <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />A legal hold is applied
              automatically.
            </li>
            <li className="flex gap-2">
              <Archive aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
              Every file is copied into the vault, checked against its recorded fingerprint, and kept under a compliance lock.
            </li>
          </ul>
          <div className="grid gap-2">
            <Label htmlFor={selectId}>Retention Period</Label>
            <Select value={String(retention)} onValueChange={(v) => setChosen(Number(v))}>
              <SelectTrigger id={selectId} aria-describedby={`${selectId}-note`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {choices.map((n) => (
                  <SelectItem key={n} value={String(n)}>
                    {years(n)}
                    {n === VAULT_LIMITS.retentionDefault ? ' (recommended)' : ''}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <p id={`${selectId}-note`} className="text-xs text-muted-foreground">
              {VAULT_MSG.retentionNote}
            </p>
          </div>
          <DialogActions onCancel={onClose} submitLabel="Vault Matter" pendingLabel="Vaulting..." pending={false} onSubmit={vault} />
        </div>
      ) : step === 'processing' ? (
        <ProcessingStep matterName={matter.matterName} />
      ) : (
        <SuccessStep matterName={matter.matterName} retentionYears={done ?? retention} onClose={onClose} />
      )}
    </DialogContent>
  );
}

/** While the vaulting call runs: a fixed progress bar and the steps the server takes. */
function ProcessingStep({ matterName }: { matterName: string }) {
  return (
    <div className="grid gap-5" aria-busy="true">
      <DialogHeader>
        <DialogTitle>Vaulting Matter</DialogTitle>
        <DialogDescription>Please wait while {matterName} is vaulted.</DialogDescription>
      </DialogHeader>
      <ProgressBar label="Vaulting progress" value={PROCESSING_PERCENT} className="h-2" />
      <ul className="grid gap-2 text-sm">
        {PROCESSING_STEPS.map((text, i) => (
          <li key={text} className="flex items-center gap-2">
            {i < PROCESSING_STEPS.length - 1 ? (
              <CheckCircle2 aria-hidden="true" className="size-4 text-success" />
            ) : (
              <Loader2 aria-hidden="true" className="size-4 animate-spin text-primary motion-reduce:animate-none" />
            )}
            {text}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The matter is vaulted: its retention, its legal hold, and the transfer that goes on on the server. */
function SuccessStep({ matterName, retentionYears, onClose }: { matterName: string; retentionYears: number; onClose: () => void }) {
  return (
    <div className="grid gap-5">
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <CheckCircle2 aria-hidden="true" className="size-5 text-success" />
          Matter Vaulted
        </DialogTitle>
        <DialogDescription>{matterName} is now vaulted and read-only.</DialogDescription>
      </DialogHeader>
      <dl className="grid gap-2 rounded-md border border-border bg-muted/40 p-4 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">Retention</dt>
          <dd className="font-medium">{years(retentionYears)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">Legal Hold</dt>
          <dd className="font-medium">Legal Hold Active</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted-foreground">Files</dt>
          <dd className="flex items-center gap-1.5 font-medium">
            <Circle aria-hidden="true" className="size-2 fill-primary text-primary" />
            Files are being transferred to cold storage
          </dd>
        </div>
      </dl>
      <DialogFooter>
        <Button onClick={onClose}>Close</Button>
      </DialogFooter>
    </div>
  );
}
