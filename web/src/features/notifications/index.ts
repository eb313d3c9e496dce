// What the rest of the web app uses of notifications: the list (the dashboard's widget and the bell's panel) and
// the two calls.
export { NotificationList } from './components/notification-list';
export { useNotifications } from './api/get-notifications';
export { useMarkNotificationsRead } from './api/mark-notifications-read';
