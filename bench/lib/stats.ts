/** The median of a non-empty list (the mean of the two middle values for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) throw new Error('median of an empty list');
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The p-th percentile (0..100) by the nearest-rank method. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty list');
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
export const fmt = (n: number, digits = 1) => n.toFixed(digits);
export const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** An integer from the environment, clamped so that every loop stays bounded. */
export function envInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number`);
  return Math.min(max, Math.max(min, Math.round(n)));
}
