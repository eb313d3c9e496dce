import { useId, useState, type FormEvent } from 'react';
import { Copy, KeySquare, Plus } from 'lucide-react';
import {
  API_TOKEN_LIMITS,
  API_TOKEN_MSG,
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  MSG,
  type ApiToken,
  type ApiTokenScope,
  type CreateApiTokenResponse,
} from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogActions } from '@/components/ui/dialog-actions';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';

const DAY_MS = 86_400_000;
const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
/** A date input's value (local calendar day) some days from today. */
const dateInDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

function stateOf(t: ApiToken): { label: string; tone: 'success' | 'neutral' | 'danger' } {
  if (t.revokedAt) return { label: 'Revoked', tone: 'danger' };
  if (new Date(t.expiresAt).getTime() <= Date.now()) return { label: 'Expired', tone: 'neutral' };
  return { label: 'Active', tone: 'success' };
}

/** The form of a new token: a name, its scopes and the last day it works. */
function CreateTokenDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onCreated: (r: CreateApiTokenResponse) => void;
}) {
  const create = useCreateApiToken();
  const ids = useId();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['matters:read']);
  const [until, setUntil] = useState(dateInDays(90));
  const [error, setError] = useState<string | undefined>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    if (name.trim() === '') return setError(API_TOKEN_MSG.nameRequired);
    if (scopes.length === 0) return setError(API_TOKEN_MSG.scopesRequired);
    // The token works until the end of the chosen day.
    const expiresAt = new Date(`${until}T23:59:59`).toISOString();
    create.mutate(
      { name: name.trim(), scopes, expiresAt },
      {
        onSuccess: (answer) => {
          onCreated(answer);
          setName('');
        },
        onError: (err) => {
          if (!isMfaCancelledError(err)) setError(errorMessage(err));
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>New API token</DialogTitle>
          <DialogDescription>
            A token lets a tool act as you, within the scopes you choose. It is shown once; creating it asks for a code.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <FormField label="Name" hint="What uses it, e.g. 'Reception scanner'.">
            {(control) => (
              <Input {...control} value={name} maxLength={API_TOKEN_LIMITS.nameMax} onChange={(e) => setName(e.target.value)} />
            )}
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Scopes</legend>
            {API_TOKEN_SCOPES.map((s) => (
              <label key={s} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-primary"
                  checked={scopes.includes(s)}
                  onChange={(e) => setScopes((prev) => (e.target.checked ? [...prev, s] : prev.filter((x) => x !== s)))}
                  aria-describedby={`${ids}-${s}`}
                />
                <span>
                  <span className="font-medium">{API_TOKEN_SCOPE_LABELS[s].label}</span>{' '}
                  <code className="text-xs text-muted-foreground">{s}</code>
                  <span id={`${ids}-${s}`} className="block text-xs text-muted-foreground">
                    {API_TOKEN_SCOPE_LABELS[s].description}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <FormField label="Works until" hint="At most one year from today.">
            {(control) => (
              <Input
                {...control}
                type="date"
                value={until}
                min={dateInDays(1)}
                max={dateInDays(365)}
                onChange={(e) => setUntil(e.target.value)}
              />
            )}
          </FormField>
          {error ? <Alert tone="danger">{error}</Alert> : null}
          <DialogActions
            onCancel={() => onOpenChange(false)}
            submitLabel="Create token"
            pendingLabel="Creating..."
            pending={create.isPending}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The token just made, shown this once with a copy button. */
function ShownOnceDialog({ created, onClose }: { created: CreateApiTokenResponse | null; onClose: () => void }) {
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.token);
      toast.success('Token copied.');
    } catch {
      toast.error(MSG.copyFailed);
    }
  };
  return (
    <Dialog open={created !== null} onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Copy your new token</DialogTitle>
          <DialogDescription>{API_TOKEN_MSG.created}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-3">
          <code data-testid="new-api-token" className="block break-all rounded-md border bg-muted p-3 font-mono text-sm">
            {created?.token}
          </code>
          <p className="text-sm text-muted-foreground">
            Send it as <code>Authorization: Bearer …</code>. Keep it like a password: anyone holding it acts as you within its scopes.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => void copy()}>
              <Copy aria-hidden="true" className="size-4" /> Copy
            </Button>
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** Settings → Profile: one's API tokens (an administrator sees and revokes everyone's in the organization). */
export function ApiTokensCard({ isAdmin }: { isAdmin: boolean }) {
  const headingId = useId();
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreateApiTokenResponse | null>(null);

  const onRevoke = (t: ApiToken) =>
    revoke.mutate({ tokenId: t.tokenId }, { onSuccess: (a) => toast.success(a.message), onError: (err) => toast.error(errorMessage(err)) });

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <KeySquare aria-hidden="true" className="size-5 text-primary" />
            <h2 id={headingId} className="text-lg font-semibold">
              API Tokens
            </h2>
          </div>
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" className="size-4" /> New token
          </Button>
        </div>
        <CardDescription>
          For the firm&apos;s own tools: scanners, exports and scripts.{' '}
          {isAdmin ? 'As an administrator you see every token of the organization.' : ''}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {tokens.isPending ? (
          <div role="status" aria-label="Loading API tokens" className="grid gap-2">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
          </div>
        ) : tokens.isError ? (
          <ErrorState
            title="Could not load API tokens"
            message={errorMessage(tokens.error)}
            onRetry={() => void tokens.refetch()}
            retrying={tokens.isFetching}
          />
        ) : tokens.data.tokens.length === 0 ? (
          <EmptyState
            icon={KeySquare}
            title="No API tokens"
            description="Create one for a tool that uploads or reads files for you."
            titleAs="h3"
          />
        ) : (
          <Table aria-label="API tokens">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                {isAdmin ? <TableHead>Owner</TableHead> : null}
                <TableHead>Scopes</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead>State</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tokens.data.tokens.map((t) => {
                const state = stateOf(t);
                return (
                  <TableRow key={t.tokenId}>
                    <TableCell>
                      <div className="font-medium">{t.name}</div>
                      <code className="text-xs text-muted-foreground">{t.prefix}…</code>
                    </TableCell>
                    {isAdmin ? <TableCell>{t.owner.name}</TableCell> : null}
                    <TableCell>
                      <div className="flex flex-wrap gap-1">
                        {t.scopes.map((s) => (
                          <Badge key={s} tone="outline">
                            {s}
                          </Badge>
                        ))}
                      </div>
                    </TableCell>
                    <TableCell>{day(t.expiresAt)}</TableCell>
                    <TableCell>{t.lastUsedAt ? day(t.lastUsedAt) : 'Never'}</TableCell>
                    <TableCell>
                      <Badge tone={state.tone}>{state.label}</Badge>
                    </TableCell>
                    <TableCell className="text-right">
                      {state.label === 'Active' ? (
                        <Button
                          variant="outline"
                          size="sm"
                          aria-label={`Revoke ${t.name}`}
                          onClick={() => onRevoke(t)}
                          disabled={revoke.isPending}
                        >
                          Revoke
                        </Button>
                      ) : null}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <CreateTokenDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(answer) => {
          setCreating(false);
          setCreated(answer);
        }}
      />
      <ShownOnceDialog created={created} onClose={() => setCreated(null)} />
    </Card>
  );
}
