/**
 * The file name of a `Content-Disposition` header: the RFC 6266 `filename*` (UTF-8, percent-encoded)
 * when present, else the plain `filename`; null when the header names no file.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed encoding: the plain name below is still usable.
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, "$1") ?? plain?.[2]?.trim();
  return name || null;
}

/** Hands a downloaded file to the browser as if the reader had clicked a link to it. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob only after click() returns; revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
