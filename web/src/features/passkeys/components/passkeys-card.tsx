import { useId, useState, type FormEvent } from 'react';
import { Fingerprint, Pencil, Plus, Trash2 } from 'lucide-react';
import { PASSKEY_LIMITS, PASSKEY_MSG, type Passkey } from '@strongroom/contracts';
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
import { Switch } from '@/components/ui/switch';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { passkeysSupported } from '@/lib/webauthn';
import { usePasskeys } from '../api/list-passkeys';
import { useAddPasskey } from '../api/register-passkey';
import { useRemovePasskey } from '../api/remove-passkey';
import { useRenamePasskey } from '../api/rename-passkey';
import { useUpdatePasskeyPolicy } from '../api/update-passkey-policy';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** The name typed for a passkey, checked as the server checks it. */
function nameProblem(name: string): string | null {
  if (name.trim() === '') return PASSKEY_MSG.nameRequired;
  if (name.trim().length > PASSKEY_LIMITS.nameMax) return PASSKEY_MSG.nameTooLong;
  return null;
}

type NameDialogProps = {
  open: boolean;
  title: string;
  description: string;
  submitLabel: string;
  pendingLabel: string;
  initial: string;
  pending: boolean;
  error: string | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
};

/** Asks for a passkey's name: to add one (the browser's prompt follows) or to rename one. */
function NameDialog({ open, title, description, submitLabel, pendingLabel, initial, pending, error, onSubmit, onClose }: NameDialogProps) {
  const [name, setName] = useState(initial);
  const [touched, setTouched] = useState(false);
  const problem = touched ? nameProblem(name) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (nameProblem(name) === null) onSubmit(name.trim());
  };
  return (
    <Dialog open={open} onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent className="max-w-md">
        <form onSubmit={submit} noValidate className="grid gap-5">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {error ? <Alert tone="danger">{error}</Alert> : null}
          <FormField label="Passkey name" error={problem ?? undefined}>
            {(control) => (
              <Input
                {...control}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="Work laptop"
                autoFocus
                maxLength={200}
              />
            )}
          </FormField>
          <DialogActions onCancel={onClose} submitLabel={submitLabel} pendingLabel={pendingLabel} pending={pending} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function PasskeyRow({
  passkey,
  onRename,
  onRemove,
  removing,
}: {
  passkey: Passkey;
  onRename: () => void;
  onRemove: () => void;
  removing: boolean;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="passkey-row">
      <div className="grid gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{passkey.name}</span>
          {passkey.backedUp ? <Badge tone="success">Synced</Badge> : <Badge tone="outline">This device only</Badge>}
        </div>
        <p className="text-xs text-muted-foreground">
          Added {day(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${day(passkey.lastUsedAt)}` : 'Never used'}
        </p>
      </div>
      <div className="flex gap-2">
        <Button variant="ghost" size="sm" onClick={onRename} aria-label={`Rename passkey ${passkey.name}`}>
          <Pencil aria-hidden="true" className="size-4" /> Rename
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={onRemove}
          loading={removing}
          loadingText="Removing..."
          aria-label={`Remove passkey ${passkey.name}`}
        >
          <Trash2 aria-hidden="true" className="size-4" /> Remove
        </Button>
      </div>
    </li>
  );
}

/** Administrators: whether people may sign in with a passkey alone (a code is asked for by the api client). */
function PolicyRow({ allowed }: { allowed: boolean }) {
  const labelId = useId();
  const update = useUpdatePasskeyPolicy();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-border pt-4">
      <div className="grid gap-0.5">
        <p id={labelId} className="text-sm font-medium">
          Allow passwordless sign-in with a passkey
        </p>
        <p className="text-sm text-muted-foreground">
          For everyone in the organization. A passkey with its PIN or biometric counts as both factors.
        </p>
      </div>
      <Switch
        aria-labelledby={labelId}
        checked={allowed}
        disabled={update.isPending}
        onCheckedChange={(next) =>
          update.mutate(
            { allowPasskeySignIn: next },
            {
              onSuccess: (res) => toast.success(res.message),
              onError: (err) => {
                if (!isMfaCancelledError(err)) toast.error(errorMessage(err));
              },
            },
          )
        }
      />
    </div>
  );
}

/** Settings → Profile: one's passkeys (add, rename, remove behind a code) and, for administrators, passwordless sign-in. */
export function PasskeysCard({ isAdmin }: { isAdmin: boolean }) {
  const headingId = useId();
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const supported = passkeysSupported();

  const onAdd = (name: string) =>
    add.mutate(name, {
      onSuccess: (res) => {
        setAdding(false);
        toast.success(res.message);
      },
    });
  const onRename = (name: string) =>
    renaming &&
    rename.mutate(
      { passkeyId: renaming.passkeyId, name },
      {
        onSuccess: (res) => {
          setRenaming(null);
          toast.success(res.message);
        },
      },
    );
  const onRemove = (p: Passkey) =>
    remove.mutate(
      { passkeyId: p.passkeyId },
      {
        onSuccess: (res) => toast.success(res.message),
        onError: (err) => {
          if (!isMfaCancelledError(err)) toast.error(errorMessage(err));
        },
      },
    );

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <Fingerprint aria-hidden="true" className="size-5 text-primary" />
            <h2 id={headingId} className="text-lg font-semibold">
              Passkeys
            </h2>
          </div>
          {supported ? (
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" className="size-4" /> Add passkey
            </Button>
          ) : null}
        </div>
        <CardDescription>
          Verify it&apos;s you with your device&apos;s fingerprint, face or PIN instead of a code. If you lose them all, your authenticator
          app or recovery codes still work.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!supported ? <Alert tone="warning">{PASSKEY_MSG.unsupported}</Alert> : null}
        {passkeys.isPending ? (
          <div role="status" aria-label="Loading passkeys" className="grid gap-2">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : passkeys.isError ? (
          <ErrorState
            title="Could not load passkeys"
            message={errorMessage(passkeys.error)}
            onRetry={() => void passkeys.refetch()}
            retrying={passkeys.isFetching}
          />
        ) : (
          <>
            {passkeys.data.passkeys.length === 0 ? (
              <EmptyState
                icon={Fingerprint}
                title="No passkeys yet"
                description="Add one to sign in and confirm actions without typing a code."
                titleAs="h3"
              />
            ) : (
              <ul aria-label="Your passkeys" className="grid divide-y divide-border">
                {passkeys.data.passkeys.map((p) => (
                  <PasskeyRow
                    key={p.passkeyId}
                    passkey={p}
                    onRename={() => setRenaming(p)}
                    onRemove={() => onRemove(p)}
                    removing={remove.isPending && remove.variables?.passkeyId === p.passkeyId}
                  />
                ))}
              </ul>
            )}
            {isAdmin ? <PolicyRow allowed={passkeys.data.allowPasskeySignIn} /> : null}
          </>
        )}
      </CardContent>
      {adding ? (
        <NameDialog
          open
          title="Add a passkey"
          description="Name it after the device or password manager that keeps it. Your browser asks for it next, then a code confirms it's you."
          submitLabel="Continue"
          pendingLabel="Adding..."
          initial=""
          pending={add.isPending}
          error={add.isError && !isMfaCancelledError(add.error) ? errorMessage(add.error) : null}
          onSubmit={onAdd}
          onClose={() => {
            setAdding(false);
            add.reset();
          }}
        />
      ) : null}
      {renaming ? (
        <NameDialog
          open
          title="Rename passkey"
          description="A name to tell your passkeys apart."
          submitLabel="Save"
          pendingLabel="Saving..."
          initial={renaming.name}
          pending={rename.isPending}
          error={rename.isError ? errorMessage(rename.error) : null}
          onSubmit={onRename}
          onClose={() => {
            setRenaming(null);
            rename.reset();
          }}
        />
      ) : null}
    </Card>
  );
}
