import { APPROVAL_MSG } from '@strongroom/contracts';

/** How previews write sizes, counts and dates: the same words on the page, in the email and in the audit log. */
export function bytesInWords(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes.toLocaleString('en-GB')} bytes` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

export const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

export const dateInWords = (d: Date | string | null) =>
  d === null ? 'never' : new Date(d).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A matter as previews name it: "2026-0001 Acme v. Beta (client Acme Ltd)". */
export const matterInWords = (m: { matterName: string; matterNumber: string | null; clientName?: string | null }) =>
  `${m.matterNumber ? `${m.matterNumber} ` : ''}${m.matterName}${m.clientName ? ` (client ${m.clientName})` : ''}`;

/** The summary of an action that cannot be undone ends with the words that say so. */
export const final = (summary: string) => `${summary} ${APPROVAL_MSG.cannotBeUndone}`;

/** The same day and time some years later, in UTC (29 February becomes 28 February or 1 March as the calendar has it). */
export function addYears(d: Date, years: number): Date {
  const r = new Date(d.getTime());
  r.setUTCFullYear(r.getUTCFullYear() + years);
  return r;
}
