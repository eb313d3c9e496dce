import { LogIn } from 'lucide-react';
import { SSO_LIMITS } from '@strongroom/contracts';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useSsoDiscovery } from '../api/discover-sso';

const looksLikeEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim());

/** 'Continue with <provider>' under the email field once the address's domain signs in with a provider. */
export function ContinueWithProvider({ email }: { email: string }) {
  const settled = useDebouncedValue(email.trim(), SSO_LIMITS.discoverDebounceMs);
  const discovery = useSsoDiscovery(looksLikeEmail(settled) ? settled : null);
  const sso = discovery.data?.sso;
  if (!sso) return null;
  return (
    <div className="grid gap-2" data-testid="sso-continue">
      <a
        href={sso.startUrl}
        className="inline-flex h-11 w-full items-center justify-center gap-2 rounded-md border border-border bg-card px-4 text-sm font-medium text-foreground shadow-xs hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <LogIn aria-hidden="true" className="size-4" />
        Continue with {sso.providerName}
      </a>
      {discovery.data?.requireSso ? (
        <p className="text-center text-sm text-muted-foreground">
          Your organization signs in with {sso.providerName}. Administrators may use their password with a recovery code.
        </p>
      ) : null}
    </div>
  );
}
