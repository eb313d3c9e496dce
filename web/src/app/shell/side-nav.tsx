import { NavLink } from 'react-router';
import { cn } from '@/lib/class-names';
import type { Role } from '@strongroom/contracts';
import { navItemsFor } from './nav-items';

type SideNavProps = { role: Role; onNavigate?: () => void; className?: string };

/** The main navigation; the current page is highlighted and marked aria-current="page". */
export function SideNav({ role, onNavigate, className }: SideNavProps) {
  return (
    <nav aria-label="Main" className={cn('grid gap-1', className)}>
      {navItemsFor(role).map(({ label, to, icon: Icon, end }) => (
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
            </>
          )}
        </NavLink>
      ))}
    </nav>
  );
}
