import { VAULT_MSG } from '@strongroom/contracts';
import { errorFromAnswer } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { saveFile } from '@/lib/save-file';

export type VaultDownloadKind = 'report' | 'report-pdf' | 'certificate';

const CALL: Record<VaultDownloadKind, { path: string; query?: string; fallback: string; extension: string }> = {
  // The chain-of-custody report: print-ready HTML with the signed certificate inside.
  report: { path: '/_api/vault/report', fallback: VAULT_MSG.reportFailed, extension: 'html' },
  // The same report as a PDF, made by the server.
  'report-pdf': { path: '/_api/vault/report', query: 'format=pdf', fallback: VAULT_MSG.reportFailed, extension: 'pdf' },
  // The signed certificate as stored, byte for byte, so `npm run verify-certificate` can check it anywhere.
  certificate: { path: '/_api/vault/certificate', fallback: VAULT_MSG.certificateFailed, extension: 'json' },
};

/** The file name the server gave (Content-Disposition), else one made of the kind and the matter. */
function fileNameOf(response: Response, kind: VaultDownloadKind, label: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  if (plain) return plain[1]!;
  return `strongroom_vault_${kind === 'certificate' ? 'certificate' : 'report'}_${label.replace(/[^A-Za-z0-9._-]+/g, '_')}.${CALL[kind].extension}`;
}

async function readError(response: Response, fallback: string): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the fallback text is used */
  }
  return errorFromAnswer(response.status, body, fallback);
}

/**
 * Fetches the report or the certificate of a vaulted matter and saves it as a file. The bytes are saved as the
 * server sent them (no parse and re-serialise). Errors are thrown as ApiError with the server's text.
 */
export async function downloadVaultFile(kind: VaultDownloadKind, matterId: string, label: string): Promise<string> {
  const call = CALL[kind];
  let response: Response;
  try {
    const query = `matterId=${encodeURIComponent(matterId)}${call.query ? `&${call.query}` : ''}`;
    response = await fetch(`${call.path}?${query}`, { credentials: 'include' });
  } catch {
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: call.fallback });
  }
  if (!response.ok) throw await readError(response, call.fallback);
  const blob = await response.blob();
  const name = fileNameOf(response, kind, label);
  saveFile(blob, name);
  return name;
}
