/**
 * The reader's notifications: audit entries of notifying kinds they may see (see notification-kinds.ts) from the
 * last 30 days, and, for holders of canViewVaulted, the vaulted matters whose retention ends in 1 to 90 days.
 * Read state is per person and kept on the server, so it follows them to every browser.
 *
 * Marking read takes only notifications the reader may see now: an id of another organization, of a kind the
 * reader may not see, too old, or of an alert no longer raised answers 404 like one that never existed, and nothing
 * is marked. Marking is personal display state, not a change to the archive, so it writes no audit entry.
 */
import {
  describeAuditEntry,
  NOTIFICATION_KIND_TITLES,
  NOTIFICATION_LIMITS,
  NOTIFICATION_MSG,
  type MarkNotificationsReadRequest,
  type MarkNotificationsReadResponse,
  type NotificationItem,
  type NotificationLink,
  type NotificationsResponse,
} from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { AppError } from '../../shared/errors.js';
import type { AppContext } from '../../shared/context.js';
import { namesOfEntries } from '../audit/index.js';
import type { AuthContext } from '../sessions/index.js';
import { kindOfAction, visibilityOf, type Visibility } from './notification-kinds.js';
import {
  allReadAt,
  countUnreadEntries,
  insertReads,
  markAllReadNow,
  notificationEntries,
  readKeys,
  retentionAlertMatters,
  visibleEntryIds,
} from './notifications.repository.js';
import { retentionAlerts, type RetentionAlert } from './retention-alerts.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const windowStart = (now: Date) => new Date(now.getTime() - NOTIFICATION_LIMITS.windowDays * DAY_MS);

type EntryRow = Awaited<ReturnType<typeof notificationEntries>>[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where an entry leads: its matter (legal holds), its vaulted matter (vault and retention end), else the entry. */
function linkOf(row: EntryRow, kind: NotificationItem['kind']): NotificationLink {
  const details = (row.details ?? {}) as Record<string, unknown>;
  const matterId =
    row.targetTable === 'matters' && row.targetId && UUID.test(row.targetId)
      ? row.targetId
      : typeof details.matterId === 'string' && UUID.test(details.matterId)
        ? details.matterId
        : null;
  if (matterId && kind === 'legal_hold') return { type: 'matter', matterId };
  if (matterId && (kind === 'vault' || row.action === 'RETENTION_CLEANUP' || row.action.startsWith('DISPOSITION_')))
    return { type: 'vault', matterId };
  return { type: 'audit', auditLogId: row.id };
}

async function entryItems(db: Executor, v: Visibility, rows: EntryRow[], isRead: (key: string, at: Date) => boolean) {
  const names = await namesOfEntries(db, v.organizationId, rows);
  return rows.map((row): NotificationItem => {
    const kind = kindOfAction(row.action) ?? 'organization';
    const id = `audit-${row.id}`;
    return {
      id,
      kind,
      title: NOTIFICATION_KIND_TITLES[kind],
      sentence: describeAuditEntry({
        action: row.action,
        actor: { name: row.actorName, email: row.actorEmail },
        targetTable: row.targetTable,
        targetId: row.targetId,
        details: row.archived ? null : (row.details as Record<string, unknown>),
        names: names.get(row.id) ?? null,
      }),
      action: row.action,
      createdAt: row.createdAt.toISOString(),
      read: isRead(id, row.createdAt),
      link: linkOf(row, kind),
    };
  });
}

function alertItem(a: RetentionAlert, read: boolean): NotificationItem {
  return {
    id: a.key,
    kind: 'retention',
    title: NOTIFICATION_MSG.retentionAlertTitle,
    sentence: NOTIFICATION_MSG.retentionAlertSentence(a.matterName, a.days),
    action: 'RETENTION_ALERT',
    createdAt: a.raisedAt.toISOString(),
    read,
    link: { type: 'vault', matterId: a.matterId },
  };
}

async function alertsFor(db: Executor, v: Visibility, now: Date): Promise<RetentionAlert[]> {
  if (!v.retentionAlerts) return [];
  return retentionAlerts(now, (from, to) => retentionAlertMatters(db, v.organizationId, from, to));
}

export async function listNotifications(
  ctx: AppContext,
  auth: AuthContext,
  query: { limit: number; unreadOnly?: boolean },
): Promise<NotificationsResponse> {
  const { db } = ctx;
  const v = visibilityOf(auth.user);
  const now = new Date();
  const since = windowStart(now);
  const allAt = await allReadAt(db, v);
  const unreadOnly = query.unreadOnly === true;
  const [rows, alerts, unreadEntries] = await Promise.all([
    notificationEntries(db, v, { since, limit: query.limit, unreadOnly, allReadAt: allAt }),
    alertsFor(db, v, now),
    countUnreadEntries(db, v, since, allAt),
  ]);
  const keys = await readKeys(db, v, [...rows.map((r) => `audit-${r.id}`), ...alerts.map((a) => a.key)]);
  const isRead = (key: string, at: Date) => keys.has(key) || (allAt !== null && at <= allAt);
  const alertRead = alerts.map((a) => ({ a, read: isRead(a.key, a.raisedAt) }));
  const items = [
    ...(await entryItems(db, v, rows, isRead)),
    ...alertRead.filter((x) => !unreadOnly || !x.read).map((x) => alertItem(x.a, x.read)),
  ];
  items.sort((x, y) => (x.createdAt < y.createdAt ? 1 : x.createdAt > y.createdAt ? -1 : 0));
  return {
    notifications: items.slice(0, query.limit),
    unreadCount: unreadEntries + alertRead.filter((x) => !x.read).length,
  };
}

async function unreadCount(db: Executor, v: Visibility, now: Date): Promise<number> {
  const allAt = await allReadAt(db, v);
  const alerts = await alertsFor(db, v, now);
  const read = await readKeys(
    db,
    v,
    alerts.map((a) => a.key),
  );
  const unreadAlerts = alerts.filter((a) => !read.has(a.key) && !(allAt !== null && a.raisedAt <= allAt)).length;
  return (await countUnreadEntries(db, v, windowStart(now), allAt)) + unreadAlerts;
}

export async function markNotificationsRead(
  ctx: AppContext,
  auth: AuthContext,
  body: MarkNotificationsReadRequest,
): Promise<MarkNotificationsReadResponse> {
  const v = visibilityOf(auth.user);
  const now = new Date();
  await ctx.db.transaction().execute(async (trx) => {
    if (body.all) {
      await markAllReadNow(trx, v.organizationId, v.userId);
      return;
    }
    const ids = [...new Set(body.notificationIds ?? [])];
    const entryIds = ids.filter((id) => id.startsWith('audit-')).map((id) => id.slice('audit-'.length));
    const alertIds = ids.filter((id) => id.startsWith('retention-'));
    const [visible, alerts] = await Promise.all([visibleEntryIds(trx, v, windowStart(now), entryIds), alertsFor(trx, v, now)]);
    const alertKeys = new Set(alerts.map((a) => a.key));
    if (entryIds.some((id) => !visible.has(id)) || alertIds.some((id) => !alertKeys.has(id))) {
      throw new AppError(404, NOTIFICATION_MSG.notFound, 'NOT_FOUND');
    }
    await insertReads(trx, v.organizationId, v.userId, ids);
  });
  return { unreadCount: await unreadCount(ctx.db, v, now) };
}
