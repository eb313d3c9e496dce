import { useId } from 'react';
import { Copy, ExternalLink, KeyRound } from 'lucide-react';
import { MSG, SIGNING_KEYS_MSG, SIGNING_KEYS_PATH } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useSigningKeys } from '../api/get-signing-keys';

/** A hex fingerprint in groups of four, so it can be read out and compared group by group. */
function groupFingerprint(hex: string): string[] {
  return hex.match(/.{1,4}/g) ?? [];
}

/**
 * The fingerprint of the key the installation signs with, as published at /.well-known/strongroom-signing-keys:
 * what a firm prints in its engagement letters so that anyone can check its certificates offline.
 */
export function SigningKeyCard() {
  const headingId = useId();
  const labelId = useId();
  const keys = useSigningKeys();
  const current = keys.data?.keys.find((k) => k.notAfter === null) ?? keys.data?.keys.at(-1);
  const earlier = (keys.data?.keys.length ?? 0) - (current ? 1 : 0);

  const copy = async (fingerprint: string) => {
    try {
      await navigator.clipboard.writeText(fingerprint);
      toast.success(SIGNING_KEYS_MSG.fingerprintCopied);
    } catch {
      toast.error(MSG.copyFailed);
    }
  };

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex items-center gap-2">
          <KeyRound aria-hidden="true" className="size-5 text-primary" />
          <h2 id={headingId} className="text-lg font-semibold">
            Signing Key
          </h2>
        </div>
        <CardDescription>Vault certificates, certificates of destruction and audit chain heads are signed with this key.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {keys.isPending ? (
          <div role="status" aria-label="Loading the signing key" className="grid gap-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-10 w-full max-w-xl" />
          </div>
        ) : keys.isError ? (
          <ErrorState
            title="Could not load the signing key"
            titleAs="h3"
            message={errorMessage(keys.error)}
            onRetry={() => void keys.refetch()}
            retrying={keys.isFetching}
            className="py-4"
          />
        ) : !current ? (
          <p className="text-sm text-muted-foreground">{SIGNING_KEYS_MSG.noKeyYet}</p>
        ) : (
          <div role="group" aria-labelledby={labelId} className="grid gap-1.5">
            <p id={labelId} className="text-sm font-medium">
              Fingerprint (SHA-256)
            </p>
            <div className="flex flex-wrap items-start gap-2 sm:flex-nowrap">
              <code
                data-testid="signing-key-fingerprint"
                data-fingerprint={current.fingerprint}
                className="min-w-0 flex-1 rounded-md border border-border bg-muted/50 px-3 py-2 font-mono text-sm leading-relaxed break-words select-all"
              >
                {groupFingerprint(current.fingerprint).join(' ')}
              </code>
              <Button variant="outline" size="md" onClick={() => void copy(current.fingerprint)}>
                <Copy aria-hidden="true" />
                Copy
              </Button>
            </div>
          </div>
        )}
        <p className="text-sm text-muted-foreground">{SIGNING_KEYS_MSG.printInLetters}</p>
        {earlier > 0 ? (
          <p className="text-sm text-muted-foreground">
            {earlier === 1 ? 'An earlier key stays' : `${earlier} earlier keys stay`} published, so certificates signed before a rotation
            still verify.
          </p>
        ) : null}
        <a
          href={SIGNING_KEYS_PATH}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1.5 justify-self-start text-sm text-link underline-offset-4 hover:underline"
        >
          Published signing keys
          <ExternalLink aria-hidden="true" className="size-4" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </CardContent>
    </Card>
  );
}
