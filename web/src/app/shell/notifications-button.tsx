import { useState } from 'react';
import { Bell, CheckCheck } from 'lucide-react';
import { NOTIFICATION_MSG } from '@strongroom/contracts';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { NotificationList, useMarkNotificationsRead, useNotifications } from '@/features/notifications';
import { toast } from '@/lib/toast';

/** The panel lists this many; the dashboard widget shows 5. */
const PANEL_LIMIT = 20;

/**
 * The top bar's bell: the count of unread notifications on the button (said in words to screen readers), and a
 * panel listing them with 'Mark all as read'. Opening a notification follows its link and marks it read.
 */
export function NotificationsButton() {
  const [open, setOpen] = useState(false);
  const q = useNotifications(PANEL_LIMIT);
  const markAll = useMarkNotificationsRead();
  const unread = q.data?.unreadCount ?? 0;
  const badge = unread > 99 ? '99+' : String(unread);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" title={NOTIFICATION_MSG.title} className="relative">
          <Bell aria-hidden="true" />
          <span className="sr-only">
            {unread > 0 ? `${NOTIFICATION_MSG.title}, ${NOTIFICATION_MSG.unreadCount(unread)}` : NOTIFICATION_MSG.title}
          </span>
          {unread > 0 ? (
            <span
              aria-hidden="true"
              data-testid="notifications-badge"
              className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] leading-none font-semibold text-primary-foreground"
            >
              {badge}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label={NOTIFICATION_MSG.title} className="w-[min(24rem,calc(100vw-1.5rem))] p-0">
        <div className="flex items-center justify-between gap-2 border-b border-border px-4 py-2">
          <h2 className="text-sm font-semibold">{NOTIFICATION_MSG.title}</h2>
          <Button
            variant="ghost"
            size="sm"
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate({ all: true }, { onError: (e) => toast.error(e.message || NOTIFICATION_MSG.markFailed) })}
          >
            <CheckCheck aria-hidden="true" />
            {NOTIFICATION_MSG.markAllRead}
          </Button>
        </div>
        <div className="max-h-[min(28rem,70vh)] overflow-y-auto p-2">
          <NotificationList limit={PANEL_LIMIT} titleAs="h3" onNavigate={() => setOpen(false)} />
        </div>
      </PopoverContent>
    </Popover>
  );
}
