import { vi } from "vitest";

/** A stand-in for XMLHttpRequest: records each request and lets the test send progress and the answer. */
export class FakeXhr {
  method = "";
  url = "";
  withCredentials = false;
  body: FormData | null = null;
  status = 0;
  statusText = "";
  responseText = "";
  /** The answer's headers, as a test sets them. */
  responseHeaders: Record<string, string> = {};

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name] ?? null;
  }
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor(private readonly sent: FakeXhr[]) {}

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  send(body: FormData): void {
    this.body = body;
    this.sent.push(this);
  }

  reportProgress(loaded: number, total: number): void {
    this.upload.onprogress?.(new ProgressEvent("progress", { lengthComputable: true, loaded, total }));
  }

  respond(status: number, body: unknown): void {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

/** Replaces XMLHttpRequest; the returned list fills with every request the code sends. */
export function mockXhr(): FakeXhr[] {
  const sent: FakeXhr[] = [];
  vi.stubGlobal(
    "XMLHttpRequest",
    vi.fn(function () {
      return new FakeXhr(sent);
    }),
  );
  return sent;
}
