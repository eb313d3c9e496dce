import { AUDIT_LOG_LIMITS, AUDIT_LOG_MSG, auditCsvFileName } from '@strongroom/contracts';
import { errorFromAnswer } from '@/lib/api-client';
import { ApiError, isMfaRequiredError, readMfaDemand } from '@/lib/api-error';
import { requestMfaCode } from '@/lib/mfa-bridge';
import { auditQueryString, type AuditFilters, type AuditSort } from '../lib/audit-filters';
import { saveFile } from '@/lib/save-file';

/** The file name the server gave (Content-Disposition), else the usual one for now. */
function fileNameOf(response: Response): string {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1]! : auditCsvFileName(new Date());
}

async function fetchCsv(path: string, mfaCode?: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'include', headers: mfaCode ? { 'x-mfa-token': mfaCode } : {} });
  } catch {
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: AUDIT_LOG_MSG.exportFailed });
  }
  if (response.ok) return response;
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the fallback text is used */
  }
  throw errorFromAnswer(response.status, body, AUDIT_LOG_MSG.exportFailed);
}

/**
 * GET /_api/audit-logs/export: the server streams the CSV of every row matching the current filters and sort
 * (the page asks for at most 10,000). Exporting needs a system MFA code (EXPORT_AUDIT_LOGS): the MFA prompt asks
 * for it and the same request goes again with the code. The file is saved as the server sent it.
 */
export async function exportAuditLogs(filters: AuditFilters, sort: AuditSort): Promise<string> {
  const path = `/_api/audit-logs/export?${auditQueryString(filters, sort, { page: 1, limit: AUDIT_LOG_LIMITS.exportLimitDefault })}`;
  let response: Response;
  try {
    response = await fetchCsv(path);
  } catch (error) {
    if (!isMfaRequiredError(error)) throw error;
    response = await requestMfaCode(readMfaDemand(error), (code) => fetchCsv(path, code));
  }
  const blob = await response.blob();
  const name = fileNameOf(response);
  saveFile(blob, name);
  return name;
}
