import { useId } from 'react';
import { Link2 } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { SSO_ERROR_CODES, SSO_MSG, type SsoErrorCode } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useSsoIdentity } from '../api/get-sso-identity';
import { useUnlinkSso } from '../api/unlink-sso';

/** Settings → Profile: link one's account to the organization's provider, or unlink it (a fresh code). */
export function SsoLinkCard() {
  const identity = useSsoIdentity();
  const unlink = useUnlinkSso();
  const headingId = useId();
  const [search] = useSearchParams();
  const code = search.get('sso_error');
  const refusal = (SSO_ERROR_CODES as readonly string[]).includes(code ?? '') ? SSO_MSG.errors[code as SsoErrorCode] : null;
  if (identity.isPending) return <Skeleton className="h-24 w-full" aria-busy="true" aria-label="Loading single sign-on" />;
  const provider = identity.data?.provider;
  if (!provider) return null;
  const linked = identity.data?.linked ?? null;
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <h2 id={headingId} className="text-lg font-semibold">
          Single sign-on
        </h2>
        <CardDescription>Sign in to Strongroom with {provider.providerName}.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {refusal ? <Alert tone="danger">{refusal}</Alert> : null}
        {search.get('sso_linked') ? <Alert tone="success">{provider.providerName} is linked to your account.</Alert> : null}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-3">
            <Link2 aria-hidden="true" className="size-5 text-muted-foreground" />
            <div className="grid gap-0.5">
              <p className="text-sm font-medium">{provider.providerName}</p>
              <Badge tone={linked ? 'success' : 'neutral'}>{linked ? 'Linked' : 'Not linked'}</Badge>
            </div>
          </div>
          {linked ? (
            <Button
              variant="outline"
              size="sm"
              loading={unlink.isPending}
              onClick={() =>
                unlink.mutate(
                  {},
                  {
                    onSuccess: (a) => toast.success(a.message),
                    onError: (err) => {
                      if (!isMfaCancelledError(err)) toast.error(errorMessage(err));
                    },
                  },
                )
              }
            >
              Unlink {provider.providerName}
            </Button>
          ) : (
            <a
              href={provider.linkUrl}
              className="inline-flex h-9 items-center rounded-md bg-primary px-3 text-sm font-medium text-primary-foreground hover:opacity-90 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              Link {provider.providerName}
            </a>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
