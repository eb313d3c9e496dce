/**
 * The audit log as CSV (RFC 4180): fields with a comma, a double quote or a line break are quoted and their
 * quotes doubled; lines end in CRLF; the file starts with a UTF-8 byte-order mark so that spreadsheet programs
 * read names in any script correctly. A cell that a spreadsheet would take for a formula (starting with =, +, -,
 * @, a tab or a carriage return) gets a leading apostrophe, so opening an export never runs what someone typed.
 */
import { AUDIT_CSV_COLUMNS } from '@strongroom/contracts';
import type { AuditLogRow } from './audit.repository.js';

export const CSV_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: neutralised against formulas, then quoted when it needs to be. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvLine(cells: string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const CSV_HEADER = csvLine([...AUDIT_CSV_COLUMNS]);

/** An entry's cells: the actor as "Name <email>" (or System), the target as "table:id" (or N/A). */
export function csvRow(r: AuditLogRow): string {
  const actor =
    r.actorId === null && r.actorName === null ? 'System' : `${r.actorName ?? ''}${r.actorEmail ? ` <${r.actorEmail}>` : ''}`.trim();
  const target = r.targetTable ? (r.targetId ? `${r.targetTable}:${r.targetId}` : r.targetTable) : 'N/A';
  return csvLine([
    new Date(r.createdAt).toISOString(),
    actor,
    r.action,
    target,
    r.archived ? '' : JSON.stringify(r.details),
    r.ipAddress ?? '',
    r.archived ? 'true' : 'false',
  ]);
}
