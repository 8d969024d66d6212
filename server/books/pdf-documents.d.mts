/** Types of pdf-documents.mjs, for the TypeScript children. */
import type { PDFDocumentProxy } from "pdfjs-dist";

export declare function withPdfDocument<T>(path: string, use: (document: PDFDocumentProxy) => Promise<T>): Promise<T>;
