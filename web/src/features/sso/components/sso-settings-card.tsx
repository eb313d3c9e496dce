import { useId, useState, type FormEvent } from 'react';
import { Copy, LogIn } from 'lucide-react';
import { SSO_LIMITS, type SsoSettings, type UpdateSsoSettingsRequest } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useSsoSettings } from '../api/get-sso-settings';
import { useUpdateSsoSettings } from '../api/update-sso-settings';

type Draft = Omit<UpdateSsoSettingsRequest, 'domains' | 'mfaToken'> & { domains: string };

const draftOf = (s: SsoSettings): Draft => ({
  displayName: s.displayName,
  issuer: s.issuer,
  clientId: s.clientId,
  clientSecret: '',
  domains: s.domains.join(', '),
  enabled: s.configured ? s.enabled : true,
  jitEnabled: s.jitEnabled,
  jitRole: s.jitRole,
  requireSso: s.requireSso,
  providerMfaCounts: s.providerMfaCounts,
});

/** One labelled switch with its explanation. */
function SwitchRow(props: { id: string; label: string; hint: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="flex items-start justify-between gap-4 py-3">
      <div className="grid gap-0.5">
        <label htmlFor={props.id} className="text-sm font-medium">
          {props.label}
        </label>
        <p id={`${props.id}-hint`} className="text-sm text-muted-foreground">
          {props.hint}
        </p>
      </div>
      <Switch id={props.id} aria-describedby={`${props.id}-hint`} checked={props.checked} onCheckedChange={props.onChange} />
    </div>
  );
}

function SsoForm({ settings }: { settings: SsoSettings }) {
  const save = useUpdateSsoSettings();
  const ids = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [error, setError] = useState<string | undefined>();
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    const domains = draft.domains
      .split(/[\s,]+/)
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean);
    const body: UpdateSsoSettingsRequest = { ...draft, domains, clientSecret: draft.clientSecret || undefined };
    save.mutate(body, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        setDraft(draftOf(answer.settings));
      },
      onError: (err) => {
        if (!isMfaCancelledError(err)) setError(errorMessage(err));
      },
    });
  };

  const copy = async () => {
    await navigator.clipboard.writeText(settings.redirectUri);
    toast.success('Redirect URI copied.');
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Single sign-on settings">
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <div className="grid gap-1">
        <p className="text-sm font-medium">Redirect URI to give the provider</p>
        <div className="flex flex-wrap items-center gap-2">
          <code className="rounded bg-muted px-2 py-1 text-sm break-all" data-testid="sso-redirect-uri">
            {settings.redirectUri}
          </code>
          <Button type="button" variant="outline" size="sm" onClick={() => void copy()} aria-label="Copy the redirect URI">
            <Copy aria-hidden="true" />
            Copy
          </Button>
        </div>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <FormField label="Provider name" hint="Shown on the sign-in page: Continue with …">
          {(control) => (
            <Input
              {...control}
              value={draft.displayName}
              maxLength={SSO_LIMITS.displayNameMax}
              onChange={(e) => set('displayName', e.target.value)}
            />
          )}
        </FormField>
        <FormField label="Issuer" hint="The provider's https address, for example https://firm.okta.com">
          {(control) => <Input {...control} value={draft.issuer} inputMode="url" onChange={(e) => set('issuer', e.target.value)} />}
        </FormField>
        <FormField label="Client ID">
          {(control) => <Input {...control} value={draft.clientId} onChange={(e) => set('clientId', e.target.value)} />}
        </FormField>
        <FormField label="Client secret" hint={settings.clientSecretSet ? 'A secret is stored; leave empty to keep it.' : undefined}>
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="off"
              value={draft.clientSecret ?? ''}
              onChange={(e) => set('clientSecret', e.target.value)}
            />
          )}
        </FormField>
      </div>
      <FormField label="Verified email domains" hint="Separated by commas, for example firm.com, firm.co.uk">
        {(control) => <Input {...control} value={draft.domains} onChange={(e) => set('domains', e.target.value)} />}
      </FormField>
      <div className="grid divide-y divide-border">
        <SwitchRow
          id={`${ids}-enabled`}
          label="Single sign-on on"
          hint="People of these domains see Continue with the provider."
          checked={draft.enabled}
          onChange={(v) => set('enabled', v)}
        />
        <SwitchRow
          id={`${ids}-jit`}
          label="Create accounts at first sign-in"
          hint="Off: an invitation still decides who belongs. On: people of the verified domains get an account."
          checked={draft.jitEnabled}
          onChange={(v) => set('jitEnabled', v)}
        />
        {draft.jitEnabled ? (
          <div className="flex items-center justify-between gap-4 py-3">
            <label htmlFor={`${ids}-role`} className="text-sm font-medium">
              Role of new accounts
            </label>
            <select
              id={`${ids}-role`}
              className="h-9 rounded-md border border-input bg-background px-2 text-sm"
              value={draft.jitRole}
              onChange={(e) => set('jitRole', e.target.value === 'guest' ? 'guest' : 'user')}
            >
              <option value="user">User</option>
              <option value="guest">Guest</option>
            </select>
          </div>
        ) : null}
        <SwitchRow
          id={`${ids}-require`}
          label="Require single sign-on"
          hint="Members can no longer sign in with a password; administrators keep it with a recovery code."
          checked={draft.requireSso}
          onChange={(v) => set('requireSso', v)}
        />
        <SwitchRow
          id={`${ids}-mfa`}
          label="The provider's MFA counts as the second factor"
          hint="Off: Strongroom still asks for its own code after the provider."
          checked={draft.providerMfaCounts}
          onChange={(v) => set('providerMfaCounts', v)}
        />
      </div>
      <Button type="submit" className="justify-self-start" loading={save.isPending} loadingText="Saving...">
        Save single sign-on
      </Button>
    </form>
  );
}

/** Settings → Security: the organization's OpenID Connect provider (administrators). */
export function SsoSettingsCard() {
  const settings = useSsoSettings();
  const headingId = useId();
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold">
          <LogIn aria-hidden="true" className="size-5" />
          Single sign-on
        </h2>
        <CardDescription>Sign in with the firm's OpenID Connect provider. Changes need a fresh code.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div className="grid gap-3" aria-busy="true" aria-label="Loading single sign-on">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-2/3" />
          </div>
        ) : settings.isError ? (
          <ErrorState message={errorMessage(settings.error)} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />
        ) : (
          <SsoForm settings={settings.data} />
        )}
      </CardContent>
    </Card>
  );
}
