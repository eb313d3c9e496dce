/**
 * A retention alert: a vaulted matter whose retention ends at least 1 and at most 90 days from now. Its key names
 * the matter and the retention's end day, so a read alert stays read until the retention date changes, and it
 * counts as raised the moment the matter entered the 90-day window.
 */
import { NOTIFICATION_LIMITS } from '@strongroom/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type RetentionAlert = {
  key: string;
  matterId: string;
  matterName: string;
  matterNumber: string | null;
  retentionExpiresAt: Date;
  /** Whole days left, rounded up (1 to 90). */
  days: number;
  raisedAt: Date;
};

type AlertMatter = { id: string; matterName: string; matterNumber: string | null; retentionExpiresAt: Date | null };

export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

export function alertWindow(now: Date): { from: Date; to: Date } {
  return { from: new Date(now.getTime() + DAY_MS), to: new Date(now.getTime() + NOTIFICATION_LIMITS.alertDays * DAY_MS) };
}

/** The alerts of `now`, from the matters `load` answers for the window. */
export async function retentionAlerts(now: Date, load: (from: Date, to: Date) => Promise<AlertMatter[]>): Promise<RetentionAlert[]> {
  const { from, to } = alertWindow(now);
  const matters = await load(from, to);
  return matters
    .filter((m): m is AlertMatter & { retentionExpiresAt: Date } => m.retentionExpiresAt !== null)
    .map((m) => ({
      key: `retention-${m.id}-${utcDay(m.retentionExpiresAt)}`,
      matterId: m.id,
      matterName: m.matterName,
      matterNumber: m.matterNumber,
      retentionExpiresAt: m.retentionExpiresAt,
      days: Math.ceil((m.retentionExpiresAt.getTime() - now.getTime()) / DAY_MS),
      raisedAt: new Date(m.retentionExpiresAt.getTime() - NOTIFICATION_LIMITS.alertDays * DAY_MS),
    }));
}
