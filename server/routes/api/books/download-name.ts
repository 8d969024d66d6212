/** `{title}.{ext}` as a safe file name: no path separators, control or reserved characters (DECISIONS §2.7). */
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
