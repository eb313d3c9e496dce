import { useId, useState } from 'react';
import { KeyRound, RefreshCw, ShieldCheck, ShieldOff } from 'lucide-react';
import { SETTINGS_MSG, type ProfileResponse } from '@strongroom/contracts';
import { RecoveryCodes } from '@/components/recovery-codes';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useRegenerateRecoveryCodes } from '../api/regenerate-recovery-codes';
import { MFA_METHOD_LABELS } from '../lib/format';
import { MfaMethodDialog } from './mfa-method-dialog';

type SecurityCardProps = {
  profile: ProfileResponse;
  userId: number;
  /** The second factor changed: the session is read again. */
  onMfaChanged: () => void;
  /** Moves focus to the password form below. */
  onChangePassword: () => void;
};

/** Security: the masked password, the second factor's status and method with Setup or Manage, and recovery codes. */
export function SecurityCard({ profile, userId, onMfaChanged, onChangePassword }: SecurityCardProps) {
  const [mfaOpen, setMfaOpen] = useState(false);
  const headingId = useId();
  const method = profile.mfaPrimaryMethod;
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <h2 id={headingId} className="text-lg font-semibold">
          Security
        </h2>
        <CardDescription>Your password and second factor.</CardDescription>
      </CardHeader>
      <CardContent className="grid divide-y divide-border">
        <div className="flex flex-wrap items-center justify-between gap-3 pb-4">
          <div className="flex items-center gap-3">
            <KeyRound aria-hidden="true" className="size-5 text-muted-foreground" />
            <div className="grid gap-0.5">
              <p className="text-sm font-medium">Password</p>
              <p className="font-mono text-sm tracking-widest text-muted-foreground" aria-label="Password hidden">
                ••••••••••
              </p>
            </div>
          </div>
          <Button variant="outline" size="sm" onClick={onChangePassword}>
            Change password
          </Button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3 py-4">
          <div className="flex items-center gap-3">
            {profile.mfaEnabled ? (
              <ShieldCheck aria-hidden="true" className="size-5 text-success" />
            ) : (
              <ShieldOff aria-hidden="true" className="size-5 text-warning" />
            )}
            <div className="grid gap-1">
              <p className="text-sm font-medium">Multi-factor authentication</p>
              <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="mfa-status">
                <Badge tone={profile.mfaEnabled ? 'success' : 'warning'}>{profile.mfaEnabled ? 'Enabled' : 'Disabled'}</Badge>
                {profile.mfaEnabled && method ? <span className="text-muted-foreground">{MFA_METHOD_LABELS[method]}</span> : null}
              </div>
            </div>
          </div>
          <Button variant={profile.mfaEnabled ? 'outline' : 'primary'} size="sm" onClick={() => setMfaOpen(true)}>
            {profile.mfaEnabled ? 'Manage' : 'Setup'}
          </Button>
        </div>
        {profile.mfaEnabled && method === 'totp' ? <RecoveryCodesRow remaining={profile.recoveryCodesRemaining} /> : null}
      </CardContent>
      <MfaMethodDialog
        open={mfaOpen}
        onOpenChange={setMfaOpen}
        userId={userId}
        mfaEnabled={profile.mfaEnabled}
        method={method}
        onChanged={onMfaChanged}
      />
    </Card>
  );
}

/** How many recovery codes are left, and Regenerate (a fresh MFA code is asked for by the api client). */
function RecoveryCodesRow({ remaining }: { remaining: number }) {
  const regenerate = useRegenerateRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const run = () =>
    regenerate.mutate(undefined, {
      onSuccess: (answer) => {
        setCodes(answer.recoveryCodes);
        toast.success(SETTINGS_MSG.recoveryCodesRegenerated);
      },
      onError: (error) => {
        if (!isMfaCancelledError(error)) toast.error(errorMessage(error));
      },
    });
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 pt-4">
      <div className="grid gap-0.5">
        <p className="text-sm font-medium">Recovery codes</p>
        <p className="text-sm text-muted-foreground">
          {remaining === 1 ? '1 unused code left.' : `${remaining} unused codes left.`} Each signs you in once if you lose your phone.
        </p>
      </div>
      <Button variant="outline" size="sm" onClick={run} loading={regenerate.isPending} loadingText="Regenerating...">
        <RefreshCw aria-hidden="true" />
        Regenerate
      </Button>
      <Dialog open={codes !== null} onOpenChange={(open) => (open ? undefined : setCodes(null))}>
        <DialogContent className="max-w-lg">
          <DialogHeader>
            <DialogTitle>New Recovery Codes</DialogTitle>
            <DialogDescription>{SETTINGS_MSG.recoveryCodesRegenerated}</DialogDescription>
          </DialogHeader>
          {codes ? <RecoveryCodes codes={codes} /> : null}
          <DialogFooter>
            <Button onClick={() => setCodes(null)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
