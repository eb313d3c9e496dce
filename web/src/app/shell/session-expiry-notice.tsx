import { useEffect, useId } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { Clock, X } from 'lucide-react';
import { MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { logout } from '@/features/auth/api/logout';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { formatCountdown } from '@/features/auth/hooks/session-countdown';
import { useSessionExpiry } from '@/features/auth/hooks/use-session-expiry';
import { clearSession, SESSION_EXPIRED_TOAST_ID } from '@/features/auth/session-errors';
import { clearSystemMfaTokens } from '@/lib/system-mfa';

/** Room kept above the notice so toasts (also bottom-right) never sit under it. */
const TOAST_OFFSET_WITH_NOTICE = '196px';

/**
 * 'Session Expiring': bottom-right, never auto-dismissed, a mm:ss countdown to
 * the session's expiresAt, announcements for screen readers, and sign-out at zero.
 */
export function SessionExpiryNotice({ expiresAt }: { expiresAt: Date | null | undefined }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const titleId = useId();

  const { visible, secondsLeft, announcement, dismiss } = useSessionExpiry({
    expiresAt,
    onWarningStart: () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
    onExpired: () => {
      // The server has ended the session by now; the call only makes sure the cookie goes too.
      void logout().catch(() => undefined);
      clearSystemMfaTokens();
      clearSession(queryClient);
      toast.error(MSG.sessionExpiredToast, { id: SESSION_EXPIRED_TOAST_ID });
      void navigate('/login', { replace: true });
    },
  });

  useEffect(() => {
    if (!visible) return;
    const root = document.documentElement;
    root.style.setProperty('--sr-toast-offset', TOAST_OFFSET_WITH_NOTICE);
    return () => {
      root.style.removeProperty('--sr-toast-offset');
    };
  }, [visible]);

  return (
    <>
      <div aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </div>
      {visible ? (
        <section
          aria-labelledby={titleId}
          className="fixed right-4 bottom-4 z-[60] w-[min(23rem,calc(100%-2rem))] rounded-xl border border-border border-l-4 border-l-warning bg-popover p-4 text-popover-foreground shadow-2xl animate-fade-in sm:right-6 sm:bottom-6"
        >
          <div className="flex items-start gap-3">
            <Clock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-warning" />
            <div className="grid min-w-0 flex-1 gap-1">
              <h2 id={titleId} className="text-sm font-semibold">
                Session Expiring
              </h2>
              <p className="text-sm text-muted-foreground">You will be logged out automatically for security reasons.</p>
              <p className="mt-1 font-mono text-2xl font-semibold tabular-nums" data-testid="session-countdown">
                <span className="sr-only">Time left: </span>
                {formatCountdown(secondsLeft)}
              </p>
            </div>
            <Button variant="ghost" size="icon-sm" aria-label="Dismiss" onClick={dismiss} className="-mt-1 -mr-1">
              <X aria-hidden="true" />
            </Button>
          </div>
        </section>
      ) : null}
    </>
  );
}
