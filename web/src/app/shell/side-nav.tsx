import { NavLink } from 'react-router';
import { cn } from '@/lib/class-names';
import type { Role } from '@strongroom/contracts';
import { navItemsFor } from './nav-items';

type SideNavProps = {
  role: Role;
  /** Whether the Approvals page is offered (administrators), and how many requests wait for this person. */
  approvals?: { waitingForYou: number } | null;
  onNavigate?: () => void;
  className?: string;
};

/** The main navigation; the current page is highlighted and marked aria-current="page". */
export function SideNav({ role, approvals, onNavigate, className }: SideNavProps) {
  return (
    <nav aria-label="Main" className={cn('grid gap-1', className)}>
      {navItemsFor(role, approvals != null).map(({ label, to, icon: Icon, end, approvals: isApprovals }) => {
        const count = isApprovals ? (approvals?.waitingForYou ?? 0) : 0;
        return (
          <NavLink
            key={to}
            to={to}
            end={end}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
                isActive ? 'bg-primary-soft text-primary-soft-foreground' : 'text-muted-foreground hover:bg-accent hover:text-foreground',
              )
            }
          >
            {({ isActive }) => (
              <>
                <Icon
                  aria-hidden="true"
                  className={cn('size-4 shrink-0', isActive ? '' : 'text-muted-foreground group-hover:text-foreground')}
                />
                {label}
                {count > 0 ? (
                  <span
                    className="ml-auto inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground"
                    data-testid="approvals-badge"
                  >
                    {count}
                    <span className="sr-only"> waiting for you</span>
                  </span>
                ) : null}
              </>
            )}
          </NavLink>
        );
      })}
    </nav>
  );
}
