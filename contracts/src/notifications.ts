import { z } from 'zod';

/**
 * Notifications: what the top bar's bell and the dashboard's Notifications widget list. They are not stored as
 * such: each is an audit entry of a notifying kind the reader may see, or a retention alert (a vaulted matter whose
 * retention ends in 1 to 90 days). Only the reading is stored, per person, so a notification read in one browser
 * reads as read in every other.
 *
 * Ids: an audit entry's notification is `audit-<entry id>`; a retention alert is
 * `retention-<matter id>-<YYYY-MM-DD of the retention end>`, so a new retention date raises a new alert.
 */

export const NOTIFICATION_MSG = {
  title: 'Notifications',
  empty: 'No notifications',
  emptyDescription: 'You are all caught up.',
  failed: 'Failed to load notifications',
  retry: 'Retry',
  markAllRead: 'Mark all as read',
  markFailed: 'Could not mark the notifications as read.',
  viewAll: 'View All',
  unread: 'Unread',
  unreadCount: (n: number) => (n === 1 ? '1 unread notification' : `${n} unread notifications`),
  // Validation and refusals
  badId: 'Each notification id must look like audit-123 or retention-<matter id>-<YYYY-MM-DD>.',
  idsOrAll: 'Send either notificationIds (1 to 50 ids) or all: true.',
  notFound: 'Notification not found.',
  // Retention alerts in words, on the list and in the daily mail to administrators
  retentionAlertTitle: 'Retention ending soon',
  retentionAlertSentence: (matterName: string, days: number) =>
    `The retention of “${matterName}” ends in ${days === 1 ? '1 day' : `${days} days`}`,
} as const;

export const NOTIFICATION_LIMITS = {
  /** The dashboard widget lists this many. */
  defaultLimit: 5,
  /** The most one call lists, and the most ids one mark call takes. */
  maxLimit: 50,
  /** Audit entries older than this many days are no longer notifications. */
  windowDays: 30,
  /** A retention alert is raised when the retention ends in at least 1 and at most this many days. */
  alertDays: 90,
  /** The bell asks again this often while the page is open. */
  pollMs: 60_000,
  /** Answers stay fresh 5 minutes (the "other queries" rule). */
  staleMs: 5 * 60_000,
} as const;

/** The kinds, each with its visibility rule (see the server's notification kinds). */
export const NOTIFICATION_KINDS = ['legal_hold', 'retention', 'vault', 'user', 'security', 'organization'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Each kind's heading in the lists. */
export const NOTIFICATION_KIND_TITLES: Record<NotificationKind, string> = {
  legal_hold: 'Legal hold',
  retention: 'Retention',
  vault: 'Vault',
  user: 'Users and invitations',
  security: 'Sign-in security',
  organization: 'Organization',
};

const AUDIT_ID = /^audit-[1-9]\d{0,18}$/;
const ALERT_ID = /^retention-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\d{4}-\d{2}-\d{2}$/;
export const notificationId = z.string().refine((v) => AUDIT_ID.test(v) || ALERT_ID.test(v), { error: NOTIFICATION_MSG.badId });

/** Where a notification leads: a matter (the matters page's detail), a vaulted matter, or an audit log row. */
export const notificationLink = z.discriminatedUnion('type', [
  z.object({ type: z.literal('matter'), matterId: z.string() }),
  z.object({ type: z.literal('vault'), matterId: z.string() }),
  z.object({ type: z.literal('audit'), auditLogId: z.string() }),
]);
export type NotificationLink = z.infer<typeof notificationLink>;

export const notificationItem = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** A short heading ('Legal hold', 'Retention ending soon'). */
  title: z.string(),
  /** The event in words, with names rather than ids ('Ada Lovelace placed “Smith v Jones” under legal hold'). */
  sentence: z.string(),
  /** The audit action, or RETENTION_ALERT for a retention alert. */
  action: z.string(),
  /** When it happened; for a retention alert, when the matter entered the 90-day window. */
  createdAt: z.string(),
  read: z.boolean(),
  link: notificationLink,
});
export type NotificationItem = z.infer<typeof notificationItem>;

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** GET /_api/notifications?limit=&unreadOnly= */
export const notificationsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_LIMITS.maxLimit).default(NOTIFICATION_LIMITS.defaultLimit),
  unreadOnly: flag.optional(),
});
export type NotificationsQuery = z.input<typeof notificationsQuery>;

export const notificationsResponse = z.object({
  /** The newest first. */
  notifications: z.array(notificationItem),
  /** Every unread notification the reader may see, not only the listed ones. */
  unreadCount: z.number().int(),
});
export type NotificationsResponse = z.infer<typeof notificationsResponse>;

/** POST /_api/notifications/read: the given ones, or all that the reader may see now. Idempotent. */
export const markNotificationsReadRequest = z
  .strictObject({
    notificationIds: z.array(notificationId).min(1).max(NOTIFICATION_LIMITS.maxLimit).optional(),
    all: z.literal(true).optional(),
  })
  .refine((b) => (b.notificationIds !== undefined) !== (b.all !== undefined), { error: NOTIFICATION_MSG.idsOrAll });
export type MarkNotificationsReadRequest = z.infer<typeof markNotificationsReadRequest>;

export const markNotificationsReadResponse = z.object({ unreadCount: z.number().int() });
export type MarkNotificationsReadResponse = z.infer<typeof markNotificationsReadResponse>;
