import { UPLOAD_MSG } from '@strongroom/contracts';

export class UploadAbortedError extends Error {
  constructor() {
    super(UPLOAD_MSG.aborted);
    this.name = 'UploadAbortedError';
  }
}

/**
 * PUT of a file or a chunk with XMLHttpRequest (fetch reports no upload progress). Sends exactly the headers
 * given and answers the response's ETag header (null when absent).
 */
export function putWithProgress(
  url: string,
  body: Blob,
  headers: Record<string, string>,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<string | null> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new UploadAbortedError());
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      signal.removeEventListener('abort', abort);
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.getResponseHeader('ETag'));
      else reject(new Error(UPLOAD_MSG.uploadFailedStatus(xhr.status, xhr.statusText || xhr.responseText.slice(0, 200))));
    };
    xhr.onerror = () => {
      signal.removeEventListener('abort', abort);
      reject(new Error(UPLOAD_MSG.networkError));
    };
    xhr.onabort = () => reject(new UploadAbortedError());
    const abort = () => xhr.abort();
    signal.addEventListener('abort', abort, { once: true });
    xhr.send(body);
  });
}
