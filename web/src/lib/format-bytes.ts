const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** '0 Bytes', '1.50 KB', '120.00 MB': sizes in the file list and the upload dialog. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes === 0) return '0 Bytes';
  const unit = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  if (unit === 0) return `${bytes} Bytes`;
  return `${(bytes / 1024 ** unit).toFixed(2)} ${UNITS[unit]}`;
}
