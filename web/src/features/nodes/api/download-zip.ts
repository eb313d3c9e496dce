/**
 * GET /_api/nodes/download-zip: the current folder (or, at the matter's root, the whole matter) as one ZIP with a
 * manifest of paths, sizes and sha256. The browser fetches it itself, so the ZIP streams to disk however large it
 * is, with the session cookie of this same origin.
 */
export function zipDownloadUrl(target: { matterId: string; folderId: string | null }): string {
  const query = target.folderId ? `nodeId=${encodeURIComponent(target.folderId)}` : `matterId=${encodeURIComponent(target.matterId)}`;
  return `/_api/nodes/download-zip?${query}`;
}

export function startZipDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
