import { VAULT_REGISTER_MSG, type VaultRegisterFormat } from '@strongroom/contracts';
import { errorFromAnswer } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { saveFile } from '@/lib/save-file';

/** The name the server gave the file (Content-Disposition), else one of the format. */
function fileNameOf(response: Response, format: VaultRegisterFormat): string {
  const plain = /filename="?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '');
  return plain ? plain[1]! : `strongroom_vault_register.${format}`;
}

/**
 * GET /_api/vault/register?format=: the register of every vaulted matter the reader may see, as CSV or as a
 * printable HTML report, saved as a file as the server sent it. Errors are thrown as ApiError with the server's text.
 */
export async function downloadVaultRegister(format: VaultRegisterFormat): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`/_api/vault/register?format=${format}`, { credentials: 'include' });
  } catch {
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: VAULT_REGISTER_MSG.failed });
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: the fallback text is used */
    }
    throw errorFromAnswer(response.status, body, VAULT_REGISTER_MSG.failed);
  }
  const name = fileNameOf(response, format);
  saveFile(await response.blob(), name);
  return name;
}
