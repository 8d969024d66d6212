/** Multipart bodies built byte by byte, so tests can send what no well-behaved client library would. */

export interface FormPart {
  name: string | undefined;
  filename?: string;
  contentType?: string;
  content: Buffer;
}

/** A multipart/form-data body exactly as given (field names and file names unescaped, as a hostile client may send them). */
export function multipartBody(parts: FormPart[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = ["form-data", part.name === undefined ? undefined : `name="${part.name}"`, part.filename === undefined ? undefined : `filename="${part.filename}"`]
      .filter(Boolean)
      .join("; ");
    const headers = [`Content-Disposition: ${disposition}`, ...(part.contentType ? [`Content-Type: ${part.contentType}`] : [])];
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join("\r\n")}\r\n\r\n`, "utf8"), part.content, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
