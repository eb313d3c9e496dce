import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_MSG, type MarkNotificationsReadRequest, type MarkNotificationsReadResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { notificationsQueryKey } from '../lib/notification-query';

/** POST /_api/notifications/read: the given notifications, or all of them, read for this person everywhere. */
function markNotificationsRead(body: MarkNotificationsReadRequest): Promise<MarkNotificationsReadResponse> {
  return apiRequest<MarkNotificationsReadResponse>('/_api/notifications/read', { body, fallbackMessage: NOTIFICATION_MSG.markFailed });
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    // The bell and the dashboard widget read the same lists: both show the new read state.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}
