import type { Role } from '@strongroom/contracts';
import {
  Archive,
  CalendarClock,
  FileSearch,
  Stamp,
  FolderKanban,
  LayoutDashboard,
  LifeBuoy,
  ScrollText,
  Settings,
  type LucideIcon,
} from 'lucide-react';

export type NavItem = {
  label: string;
  to: string;
  icon: LucideIcon;
  end?: boolean;
  forGuests?: boolean;
  /** Shown only to whom the shell says may see it (the Approvals page: administrators). */
  approvals?: boolean;
  /** Shown to administrators only (the disposition review, where they decide). */
  adminOnly?: boolean;
};

/** The side navigation. */
const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', to: '/', icon: LayoutDashboard, end: true },
  { label: 'Matters', to: '/matters', icon: FolderKanban, forGuests: true },
  { label: 'Search', to: '/search', icon: FileSearch },
  { label: 'Vault', to: '/vault', icon: Archive, end: true },
  { label: 'Disposition', to: '/vault/disposition', icon: CalendarClock, adminOnly: true },
  { label: 'Audit Logs', to: '/audit-logs', icon: ScrollText },
  { label: 'Approvals', to: '/approvals', icon: Stamp, approvals: true },
  { label: 'Settings', to: '/settings', icon: Settings, forGuests: true },
  { label: 'Help', to: '/help', icon: LifeBuoy, forGuests: true },
];

/**
 * A guest reads the matters shared with them, manages their own account in Settings (Profile alone: details,
 * password, second factor, recovery codes) and reads Help; every other page is Access Denied.
 */
const GUEST_PATHS: readonly string[] = NAV_ITEMS.filter((i) => i.forGuests).map((i) => i.to);
/** A matter's own page, /matters/<id>: a guest opens the ones shared with them (any other answers not found). */
const MATTER_PAGE = /^\/matters\/[^/]+\/?$/;

/** Whether a guest may open this page at all. */
export function guestMayOpen(pathname: string): boolean {
  return GUEST_PATHS.includes(pathname) || MATTER_PAGE.test(pathname);
}

export function navItemsFor(role: Role, showApprovals = false): NavItem[] {
  const items = showApprovals ? NAV_ITEMS : NAV_ITEMS.filter((i) => !i.approvals);
  if (role === 'guest') return items.filter((i) => i.forGuests);
  return role === 'admin' ? items : items.filter((i) => !i.adminOnly);
}
