/** Every notifications query (the bell's and the dashboard widget's) starts with this key. */
export const notificationsQueryKey = ['notifications'] as const;
