import { Bell, BellOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';

/** The notifications popover; there are none to show yet. */
export function NotificationsButton() {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Notifications" title="Notifications">
          <Bell aria-hidden="true" />
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label="Notifications" className="w-80 p-0">
        <div className="border-b border-border px-4 py-3">
          <h2 className="text-sm font-semibold">Notifications</h2>
        </div>
        <EmptyState icon={BellOff} titleAs="p" title="No notifications" description="You are all caught up." className="py-8" />
      </PopoverContent>
    </Popover>
  );
}
