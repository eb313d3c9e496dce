import { type ManagedUser } from '@strongroom/contracts';
import { SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusBadge } from './member-status-badge';

/** The Manage drawer's header: the member's name, status and email, or a placeholder while they load. */
export function MemberDrawerHeader({ user, loading }: { user: ManagedUser | null; loading: boolean }) {
  return (
    <SheetHeader className="border-b border-border p-5">
      {loading || !user ? (
        <>
          <SheetTitle className="sr-only">Manage user</SheetTitle>
          <div aria-busy="true" aria-label="Loading user" className="grid gap-2">
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-56" />
          </div>
        </>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <SheetTitle>{user.fullName}</SheetTitle>
            <StatusBadge status={user.status} />
          </div>
          <SheetDescription>{user.email}</SheetDescription>
        </>
      )}
    </SheetHeader>
  );
}
