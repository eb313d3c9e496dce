import { useState } from 'react';
import { Link } from 'react-router';
import { Menu, UserPlus } from 'lucide-react';
import { invitableRoles, type SessionUser } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { InviteUserDialog } from '@/features/team/components/invite-user-dialog';
import { AvatarMenu } from './avatar-menu';
import { BrandMark } from './brand';
import { NotificationsButton } from './notifications-button';
import { SearchBox } from './search-box';
import { ThemeToggle } from './theme-toggle';
import { shows } from '@/lib/access-visibility';

type TopBarProps = { user: SessionUser; onOpenNavigation: () => void; onLogout: () => void };

export function TopBar({ user, onOpenNavigation, onLogout }: TopBarProps) {
  const [inviteOpen, setInviteOpen] = useState(false);
  return (
    <header className="sticky top-0 z-40 h-16 border-b border-border bg-topbar backdrop-blur supports-[backdrop-filter]:bg-topbar">
      <div className="flex h-full items-center gap-2 px-3 sm:gap-3 sm:px-4">
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open navigation" onClick={onOpenNavigation}>
          <Menu aria-hidden="true" />
        </Button>
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2.5 rounded-md pr-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring lg:w-52"
        >
          <BrandMark className="size-7" />
          <span className="hidden text-base font-semibold tracking-tight sm:inline">Strongroom</span>
          <span className="sr-only sm:hidden">Strongroom</span>
        </Link>
        <SearchBox className="max-w-md flex-1" />
        <div className="ml-auto flex items-center gap-1">
          {/* Shown to everyone the server lets invite: the rule is shared with its check. */}
          {shows(user, 'inviteUser') ? (
            <>
              <Button variant="outline" size="sm" onClick={() => setInviteOpen(true)} className="mr-1" aria-label="Invite User">
                <UserPlus aria-hidden="true" />
                <span className="hidden md:inline">Invite User</span>
              </Button>
              <InviteUserDialog open={inviteOpen} onOpenChange={setInviteOpen} roles={invitableRoles(user)} />
            </>
          ) : null}
          <ThemeToggle />
          <NotificationsButton />
          <AvatarMenu user={user} onLogout={onLogout} />
        </div>
      </div>
    </header>
  );
}
