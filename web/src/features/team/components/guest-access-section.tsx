import { useState } from 'react';
import { Share2, X } from 'lucide-react';
import { TEAM_MSG, type GuestGrantAccess, type ManagedUser } from '@strongroom/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isMfaCancelledError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useGrantGuestAccess, useGuestGrants, useMatterChoices, useRevokeGuestAccess } from '../api/guest-access';

/** How each grant's access reads in the drawer. */
const ACCESS_LABELS: Record<GuestGrantAccess, string> = { download: 'Can download', view: 'View only' };
const ACCESS_CHOICES: GuestGrantAccess[] = ['download', 'view'];

const selectClass =
  'h-8 rounded-md border border-input bg-background px-2 text-sm text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50';

/**
 * The matters shared with a guest, read-only: an administrator shares a matter (found by name or number) with
 * an access chosen per grant (download its files, or view the list only), changes that access, and stops
 * sharing it. A guest sees nothing else; with no matter shared they see nothing at all.
 */
export function GuestAccessSection({ guest }: { guest: ManagedUser }) {
  const grants = useGuestGrants(guest.id);
  const grant = useGrantGuestAccess();
  const revoke = useRevokeGuestAccess();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 300);
  const choices = useMatterChoices(debounced);
  const [failure, setFailure] = useState<string | null>(null);
  const [access, setAccess] = useState<GuestGrantAccess>('download');
  const shared = new Set((grants.data?.grants ?? []).map((g) => g.matterId));
  const offered = (choices.data?.matters ?? []).filter((m) => !shared.has(m.id)).slice(0, 5);

  const onError = (err: unknown) => setFailure(isMfaCancelledError(err) ? null : errorMessage(err));
  const share = (matterId: string) => {
    setFailure(null);
    grant.mutate({ userId: guest.id, matterId, access }, { onSuccess: () => toast.success(TEAM_MSG.guestGranted), onError });
  };
  const changeAccess = (matterId: string, next: GuestGrantAccess) => {
    setFailure(null);
    grant.mutate({ userId: guest.id, matterId, access: next }, { onSuccess: (res) => toast.success(res.message), onError });
  };
  const unshare = (matterId: string) => {
    setFailure(null);
    revoke.mutate({ userId: guest.id, matterId }, { onSuccess: () => toast.success(TEAM_MSG.guestRevoked), onError });
  };

  return (
    <section aria-labelledby="guest-access-heading" className="grid gap-3">
      <h3 id="guest-access-heading" className="text-sm font-semibold">
        Shared matters
      </h3>
      {failure ? <Alert tone="danger">{failure}</Alert> : null}
      {grants.isPending ? (
        <div aria-busy="true" aria-label="Loading shared matters" className="grid gap-2">
          <Skeleton className="h-9" />
          <Skeleton className="h-9" />
        </div>
      ) : grants.isError ? (
        <Alert tone="danger">{errorMessage(grants.error)}</Alert>
      ) : grants.data.grants.length === 0 ? (
        <p className="text-sm text-muted-foreground">{TEAM_MSG.guestNoGrants}</p>
      ) : (
        <ul aria-label="Matters shared with this guest" className="grid gap-1.5">
          {grants.data.grants.map((g) => (
            <li key={g.matterId} className="flex items-center justify-between gap-2 rounded-md border border-border px-3 py-2 text-sm">
              <span className="min-w-0 flex-1 truncate">
                {g.matterName}
                {g.matterNumber ? <span className="ml-1.5 font-mono text-xs text-muted-foreground">{g.matterNumber}</span> : null}
              </span>
              <select
                aria-label={`Access to ${g.matterName}`}
                value={g.access}
                onChange={(e) => changeAccess(g.matterId, e.target.value as GuestGrantAccess)}
                disabled={grant.isPending}
                className={selectClass}
              >
                {ACCESS_CHOICES.map((a) => (
                  <option key={a} value={a}>
                    {ACCESS_LABELS[a]}
                  </option>
                ))}
              </select>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Stop sharing ${g.matterName}`}
                onClick={() => unshare(g.matterId)}
                disabled={revoke.isPending}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-2">
        <Label htmlFor="guest-matter-search">Share a matter</Label>
        <Input
          id="guest-matter-search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Search matters by name or number"
          autoComplete="off"
        />
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor="guest-share-access" className="text-sm font-normal text-muted-foreground">
            Shared as
          </Label>
          <select
            id="guest-share-access"
            value={access}
            onChange={(e) => setAccess(e.target.value as GuestGrantAccess)}
            className={selectClass}
          >
            {ACCESS_CHOICES.map((a) => (
              <option key={a} value={a}>
                {ACCESS_LABELS[a]}
              </option>
            ))}
          </select>
          <span className="text-xs text-muted-foreground">
            {access === 'view' ? 'The guest sees the files but cannot download them.' : 'The guest can open and download the files.'}
          </span>
        </div>
        {choices.isError ? <p className="text-sm text-danger">{errorMessage(choices.error)}</p> : null}
        {offered.length > 0 ? (
          <ul aria-label="Matters to share" className="grid gap-1">
            {offered.map((m) => (
              <li key={m.id} className="flex items-center justify-between gap-2 text-sm">
                <span className="min-w-0 truncate">
                  {m.matterName}
                  {m.matterNumber ? <span className="ml-1.5 font-mono text-xs text-muted-foreground">{m.matterNumber}</span> : null}
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => share(m.id)}
                  disabled={grant.isPending}
                  aria-label={`Share ${m.matterName}`}
                >
                  <Share2 aria-hidden="true" />
                  Share
                </Button>
              </li>
            ))}
          </ul>
        ) : choices.isSuccess ? (
          <p className="text-sm text-muted-foreground">No other matters match.</p>
        ) : null}
      </div>
    </section>
  );
}
