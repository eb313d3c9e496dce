// What the app uses of notifications: the two routes and the daily retention-alert mail. The feature owns the
// notification_reads and notification_mail_days tables and writes nothing else.
export { notificationsRoutes } from './notifications.routes.js';
export { defineNotificationJobs, retentionAlertMailPlan, runRetentionAlertMail } from './notifications.jobs.js';
