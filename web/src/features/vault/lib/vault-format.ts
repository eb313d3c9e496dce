/** Vault queries stay fresh for a minute. */
export const VAULT_STALE_MS = 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;

export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return 'N/A';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? 'N/A' : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return 'N/A';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? 'N/A' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export type RetentionLeft = { kind: 'permanent' } | { kind: 'expired' } | { kind: 'running'; years: number; days: number };

/**
 * What is left of a retention period: permanent (no end), expired (the end has passed), or whole years and the
 * days beyond them, counted in calendar years from now. A part of a day counts as a day, and a period that ends
 * within a day of a whole number of years reads as those years (a matter vaulted a minute ago for 10 years has
 * '10 years' left, not '9 years, 365 days').
 */
export function retentionLeft(expiresAt: Date | string | null, now: Date = new Date()): RetentionLeft {
  if (!expiresAt) return { kind: 'permanent' };
  const end = new Date(expiresAt);
  if (end.getTime() <= now.getTime()) return { kind: 'expired' };
  const anniversary = (y: number) => {
    const d = new Date(now);
    d.setFullYear(now.getFullYear() + y);
    return d;
  };
  let years = end.getFullYear() - now.getFullYear();
  if (anniversary(years).getTime() > end.getTime()) years -= 1;
  if (anniversary(years + 1).getTime() - end.getTime() < DAY_MS) return { kind: 'running', years: years + 1, days: 0 };
  const days = Math.ceil((end.getTime() - anniversary(years).getTime()) / DAY_MS);
  return { kind: 'running', years, days };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** '2 years, 15 days left', '40 days left', '7 years left'. */
export function retentionLeftText(left: Extract<RetentionLeft, { kind: 'running' }>): string {
  if (left.years === 0) return `${plural(left.days, 'day')} left`;
  if (left.days === 0) return `${plural(left.years, 'year')} left`;
  return `${plural(left.years, 'year')}, ${plural(left.days, 'day')} left`;
}

/** Rows of skeleton while the vault list loads. */
export const VAULT_SKELETON_ROWS = 10;
