import { MATTER_LIMITS } from '@strongroom/contracts';

/** The list shows the first 100 characters of a description, then '...'. */
export function descriptionPreview(description: string | null | undefined, max: number = MATTER_LIMITS.descriptionPreview): string {
  if (!description) return '';
  const text = description.trim();
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** '26 Nov 2026', or 'N/A' when missing or not a date. */
export function formatMatterDate(value: Date | string | null | undefined): string {
  if (!value) return 'N/A';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return 'N/A';
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
