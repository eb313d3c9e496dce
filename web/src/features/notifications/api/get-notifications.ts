import { useQuery } from '@tanstack/react-query';
import { NOTIFICATION_LIMITS, NOTIFICATION_MSG, type NotificationsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { notificationsQueryKey } from '../lib/notification-query';

/** GET /_api/notifications: the newest notifications the person may see, with the count of every unread one. */
function getNotifications(limit: number, signal?: AbortSignal): Promise<NotificationsResponse> {
  return apiRequest<NotificationsResponse>(`/_api/notifications?limit=${limit}`, { signal, fallbackMessage: NOTIFICATION_MSG.failed });
}

/**
 * Fresh for 5 minutes like every other query, asked again on focus and every minute while the page is open, so
 * the bell's count follows what happens in the organization and what the person read in another browser.
 */
export function useNotifications(limit: number = NOTIFICATION_LIMITS.defaultLimit) {
  return useQuery({
    queryKey: [...notificationsQueryKey, limit],
    queryFn: ({ signal }) => getNotifications(limit, signal),
    staleTime: NOTIFICATION_LIMITS.staleMs,
    refetchInterval: NOTIFICATION_LIMITS.pollMs,
    refetchOnWindowFocus: true,
  });
}
