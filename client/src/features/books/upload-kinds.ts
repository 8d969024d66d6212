import { BOOK_FILE_MAX_BYTES, COVER_MAX_BYTES, type BookFileType, type COVER_EXTENSIONS } from "@shared/books";
import type { Accept } from "react-dropzone";

export type UploadKind = "book" | "cover";

const BYTES_PER_MB = 1024 * 1024;

/** The browsers' MIME type for each accepted extension; the server checks the real content anyway. */
const MIME_BY_BOOK_EXTENSION: Record<BookFileType, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  epub: "application/epub+zip",
};
const MIME_BY_COVER_EXTENSION: Record<(typeof COVER_EXTENSIONS)[number], string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/** react-dropzone's accept map: each MIME type with its extensions, e.g. image/jpeg → .jpg, .jpeg. */
function acceptOf(mimeByExtension: Record<string, string>): Accept {
  const accept: Record<string, string[]> = {};
  for (const [extension, mime] of Object.entries(mimeByExtension)) (accept[mime] ??= []).push(`.${extension}`);
  return accept;
}

/** Translation keys of one kind of zone's texts; the messages are the same keys the server answers in `fields`. */
interface UploadTexts {
  prompt: string;
  /** The same for a touch screen, which neither drags nor clicks. */
  touchPrompt: string;
  select: string;
  hint: string;
  ready: string;
  tooLarge: string;
  invalidType: string;
  otherError: string;
}

export interface UploadRules {
  accept: Accept;
  maxBytes: number;
  /**
   * Set when the file is opened in the browser before it is shown as ready (a cover must be a picture
   * the browser can draw), with the translation key of the message for one it cannot.
   */
  decodeCheck: { unreadable: string } | null;
  texts: UploadTexts;
}

export const UPLOAD_RULES: Record<UploadKind, UploadRules> = {
  book: {
    accept: acceptOf(MIME_BY_BOOK_EXTENSION),
    maxBytes: BOOK_FILE_MAX_BYTES,
    decodeCheck: null,
    texts: {
      prompt: "upload.bookPrompt",
      touchPrompt: "upload.bookPromptTouch",
      select: "upload.fileSelect",
      hint: "upload.bookHint",
      ready: "upload.fileReady",
      tooLarge: "upload.fileTooLarge",
      invalidType: "upload.fileInvalidType",
      otherError: "upload.fileUploadError",
    },
  },
  cover: {
    accept: acceptOf(MIME_BY_COVER_EXTENSION),
    maxBytes: COVER_MAX_BYTES,
    decodeCheck: { unreadable: "upload.imageUnreadable" },
    texts: {
      prompt: "upload.coverPrompt",
      touchPrompt: "upload.coverPromptTouch",
      select: "upload.imageSelect",
      hint: "upload.coverHint",
      ready: "upload.imageReady",
      tooLarge: "upload.imageTooLarge",
      invalidType: "upload.imageInvalidType",
      otherError: "upload.imageUploadError",
    },
  },
};

/** A size in megabytes, the unit of the limits and of the sizes shown to authors. */
export const toMegabytes = (bytes: number) => bytes / BYTES_PER_MB;

/** "PDF" for "my book.pdf": how the preview names a file's type. */
export function fileTypeLabel(file: File): string {
  const extension = /\.([^.]+)$/.exec(file.name)?.[1];
  return extension ? extension.toUpperCase() : file.type;
}
