import { KeyRound } from 'lucide-react';
import { type ManagedUser } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';

/** Security: the member's second factor (authenticator app or email) and the button that resets it. */
export function MemberSecuritySection({ user, disabled, onResetMfa }: { user: ManagedUser; disabled: boolean; onResetMfa: () => void }) {
  return (
    <section aria-labelledby="drawer-security-heading" className="grid gap-3">
      <h3 id="drawer-security-heading" className="text-sm font-semibold">
        Security
      </h3>
      <div className="flex items-center justify-between gap-4 rounded-md border border-border px-3.5 py-3">
        <div className="grid gap-0.5 text-sm">
          <span className="font-medium">Multi-factor authentication</span>
          <span className="text-xs text-muted-foreground">Enabled ({user.mfaMethod === 'totp' ? 'Authenticator App' : 'Email'})</span>
        </div>
        <Button variant="outline" size="sm" onClick={onResetMfa} disabled={disabled}>
          <KeyRound aria-hidden="true" />
          Reset MFA
        </Button>
      </div>
    </section>
  );
}
