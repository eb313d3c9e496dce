const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** 'Nov 26, 2026'. */
export function formatDay(value: Date | string): string {
  return DATE.format(typeof value === 'string' ? new Date(value) : value);
}

/** 'Nov 26, 3:05 PM'. */
export function formatWhen(value: string): string {
  return DATE_TIME.format(new Date(value));
}
