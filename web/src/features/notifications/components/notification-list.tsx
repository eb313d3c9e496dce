import { Link } from 'react-router';
import { Archive, BellOff, Building2, CalendarClock, Gavel, ShieldAlert, Users, type LucideIcon } from 'lucide-react';
import { NOTIFICATION_MSG, type NotificationItem, type NotificationKind } from '@strongroom/contracts';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/class-names';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { notificationHref } from '../lib/notification-link';
import { relativeTime } from '../lib/relative-time';

const KIND_ICON: Record<NotificationKind, LucideIcon> = {
  legal_hold: Gavel,
  retention: CalendarClock,
  vault: Archive,
  user: Users,
  security: ShieldAlert,
  organization: Building2,
};

function NotificationRow({ item, onOpen }: { item: NotificationItem; onOpen: (item: NotificationItem) => void }) {
  const Icon = KIND_ICON[item.kind];
  return (
    <li>
      <Link
        to={notificationHref(item)}
        onClick={() => onOpen(item)}
        data-read={item.read}
        className={cn(
          'flex items-start gap-3 rounded-md px-2 py-2 text-left outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring',
          !item.read && 'bg-primary/5',
        )}
      >
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Icon aria-hidden="true" className="size-4" />
        </span>
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-2">
            <span className="truncate text-sm font-medium">{item.title}</span>
            {item.read ? null : (
              <span className="flex items-center">
                <span aria-hidden="true" className="size-2 rounded-full bg-primary" />
                <span className="sr-only">{NOTIFICATION_MSG.unread}</span>
              </span>
            )}
          </span>
          <span className="line-clamp-2 text-xs text-muted-foreground">{item.sentence}</span>
          <time dateTime={item.createdAt} title={new Date(item.createdAt).toLocaleString()} className="text-xs text-muted-foreground">
            {relativeTime(item.createdAt)}
          </time>
        </span>
      </Link>
    </li>
  );
}

type NotificationListProps = {
  /** How many to list: 5 on the dashboard (the default), more in the bell's panel. */
  limit?: number;
  /** Called after a notification was opened (the bell closes its panel). */
  onNavigate?: () => void;
  /** The heading level of the empty and error states. */
  titleAs?: 'h2' | 'h3';
  className?: string;
};

/**
 * The notifications the person may see, newest first: skeleton rows while loading, an error with Retry, 'No
 * notifications' when there are none. Each row leads to its matter, vaulted matter or audit entry, and opening it
 * marks it read for this person in every browser.
 */
export function NotificationList({ limit = 5, onNavigate, titleAs = 'h3', className }: NotificationListProps) {
  const q = useNotifications(limit);
  const mark = useMarkNotificationsRead();
  const open = (item: NotificationItem) => {
    if (!item.read) mark.mutate({ notificationIds: [item.id] });
    onNavigate?.();
  };
  if (q.isPending) {
    return (
      <div role="status" aria-label={`Loading ${NOTIFICATION_MSG.title.toLowerCase()}`} className={cn('grid gap-2 p-2', className)}>
        {Array.from({ length: Math.min(limit, 5) }, (_, i) => (
          <div key={i} className="flex items-center gap-3">
            <Skeleton className="size-8 rounded-full" />
            <div className="grid flex-1 gap-1">
              <Skeleton className="h-3.5 w-1/2" />
              <Skeleton className="h-3 w-5/6" />
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (q.isError) {
    return (
      <ErrorState
        titleAs={titleAs}
        title={NOTIFICATION_MSG.failed}
        message={q.error.message}
        onRetry={() => void q.refetch()}
        retrying={q.isFetching}
        className={cn('py-6', className)}
      />
    );
  }
  if (q.data.notifications.length === 0) {
    return (
      <EmptyState
        icon={BellOff}
        titleAs={titleAs}
        title={NOTIFICATION_MSG.empty}
        description={NOTIFICATION_MSG.emptyDescription}
        className={cn('py-6', className)}
      />
    );
  }
  return (
    <ul aria-label={NOTIFICATION_MSG.title} className={cn('grid gap-1', className)}>
      {q.data.notifications.map((n) => (
        <NotificationRow key={n.id} item={n} onOpen={open} />
      ))}
    </ul>
  );
}
