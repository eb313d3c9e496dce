/** Hands a file the page has fetched to the browser's download, under the given name. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // Revoked once the browser has taken the file.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
