/** Every API error answers this JSON shape (docs/product.md#errors). */
export interface ApiErrorBody {
  /** A sentence for people, in English. The client shows the translation of `code` when it has one. */
  message: string;
  /** Stable machine-readable code: the client translates `errors.<code>`. */
  code: string;
  /** Per-field translation keys for validation errors, e.g. `{ username: "validation.usernameMin" }`. */
  fields?: Record<string, string>;
  /** Present on unexpected errors, so a person can quote it and the log can be searched. */
  requestId?: string;
}
