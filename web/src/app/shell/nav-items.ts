import { Archive, FolderKanban, LayoutDashboard, LifeBuoy, ScrollText, Settings, type LucideIcon } from 'lucide-react';

export type NavItem = { label: string; to: string; icon: LucideIcon; end?: boolean };

/** The side navigation. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', to: '/', icon: LayoutDashboard, end: true },
  { label: 'Matters', to: '/matters', icon: FolderKanban },
  { label: 'Vault', to: '/vault', icon: Archive },
  { label: 'Audit Logs', to: '/audit-logs', icon: ScrollText },
  { label: 'Settings', to: '/settings', icon: Settings },
  { label: 'Help', to: '/help', icon: LifeBuoy },
];
