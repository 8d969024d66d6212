/** `{title}.{ext}` as a safe file name: no path separators, control or reserved characters (docs/product.md#books). */
export function downloadFileName(title: string, extension: string): string {
  const safeTitle = title
    .normalize("NFC")
    .replace(/[\p{Cc}/\\:*?"<>|]+|\.{2,}/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "")
    .slice(0, 200)
    .trim();
  return `${safeTitle || "book"}.${extension}`;
}
