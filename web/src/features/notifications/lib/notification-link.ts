import type { NotificationItem } from '@strongroom/contracts';
import { workspaceHref } from '@/lib/workspace-links';

/** The entry's local calendar day, 'YYYY-MM-DD', for the audit page's date filter. */
function dayOf(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Where a notification leads: a matter opens its own page (/matters/<id>), a vaulted matter its
 * detail on the vault page (?matter=), an audit entry the Audit Logs page filtered to that entry's action and day.
 */
export function notificationHref(n: Pick<NotificationItem, 'link' | 'action' | 'createdAt'>): string {
  const { link } = n;
  if (link.type === 'matter') return workspaceHref(link.matterId);
  if (link.type === 'vault') return `/vault?matter=${encodeURIComponent(link.matterId)}`;
  const qs = new URLSearchParams({ entry: link.auditLogId, action: n.action, day: dayOf(n.createdAt) });
  return `/audit-logs?${qs.toString()}`;
}
