import { APPROVAL_ACTION_LABELS, type ApprovalRequestAction } from '@strongroom/contracts';

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** '28 Nov 2026, 13:30' in the reader's time zone; '—' for nothing or a value that is not a date. */
export function formatApprovalTime(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '—' : DATE_TIME.format(d);
}

/** The action's name as the rules and the table show it. */
export function actionLabel(action: ApprovalRequestAction, given?: string): string {
  return given && given.trim() !== '' ? given : APPROVAL_ACTION_LABELS[action];
}

/** A parameter of the recorded call as text: strings as they are, anything else as JSON. */
export function parameterText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
