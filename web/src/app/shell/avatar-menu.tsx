import { Link } from 'react-router';
import { LogOut, UserCog } from 'lucide-react';
import type { SessionUser } from '@strongroom/contracts';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { initialsOf } from '@/lib/initials';

type AvatarMenuProps = { user: SessionUser | null; loading?: boolean; onLogout: () => void };

export function AvatarMenu({ user, loading = false, onLogout }: AvatarMenuProps) {
  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while focus can still reach it.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        aria-label="Account menu"
        className="rounded-full p-0.5 transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <Avatar className="size-8">
          <AvatarFallback className="text-xs">{initialsOf(user?.displayName, loading && !user)}</AvatarFallback>
        </Avatar>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-64" inline>
        <DropdownMenuLabel className="grid gap-0.5">
          <span className="truncate font-medium text-foreground">{user?.displayName ?? '...'}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user?.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <UserCog aria-hidden="true" />
            Profile Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onLogout}>
          <LogOut aria-hidden="true" />
          Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
