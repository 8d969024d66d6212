// The parts of foliate-js (plain JavaScript, no types of its own) the EPUB reader uses.
declare module "foliate-js/view.js" {
  export interface FoliateTocItem {
    label: string;
    href: string;
    subitems?: FoliateTocItem[] | null;
  }

  export interface FoliateSection {
    id: string;
    /** The URL of the section's document, as published; Plume's reader gives its markup instead. */
    load(): Promise<string> | string;
    unload?(): void;
    linear?: string;
    cfi?: string;
  }

  export interface FoliateBook {
    sections: FoliateSection[];
    toc?: FoliateTocItem[];
    dir?: string;
    metadata?: { title?: unknown; language?: unknown };
    /** The loader's events: "data" before a resource becomes a URL, "plume-url" once it is one (scripts/vite-foliate-under-csp.ts). */
    transformTarget?: EventTarget;
    rendition?: { layout?: string };
  }

  export interface FoliateLocation {
    /** How far through the book, 0 to 1. */
    fraction: number;
    section: { current: number; total: number };
    tocItem?: FoliateTocItem | null;
    cfi: string;
  }

  export interface FoliateRenderer extends HTMLElement {
    setStyles(styles: string | [string, string]): void;
    next(): Promise<void>;
    prev(): Promise<void>;
  }

  export class View extends HTMLElement {
    book: FoliateBook;
    renderer: FoliateRenderer;
    lastLocation: FoliateLocation | null;
    open(book: FoliateBook): Promise<void>;
    init(options: { lastLocation?: string | number | { fraction: number } | null; showTextStart?: boolean }): Promise<void>;
    goTo(target: string | number): Promise<unknown>;
    goToFraction(fraction: number): Promise<void>;
    goLeft(): Promise<void>;
    goRight(): Promise<void>;
    prev(): Promise<void>;
    next(): Promise<void>;
    close(): void;
  }
}

declare module "foliate-js/epub.js" {
  import type { FoliateBook } from "foliate-js/view.js";

  export class EPUB {
    constructor(loader: {
      loadText(name: string): Promise<string | null>;
      loadBlob(name: string, type?: string): Promise<Blob> | null;
      getSize(name: string): number;
    });
    init(): Promise<FoliateBook>;
  }
}

declare module "foliate-js/vendor/zip.js" {
  export function configure(options: { useWebWorkers: boolean }): void;
  export class BlobReader {
    constructor(blob: Blob);
  }
  export class TextWriter {
    private readonly writes: "text";
  }
  export class BlobWriter {
    constructor(type?: string);
    private readonly writes: "blob";
  }
  export interface ZipEntry {
    filename: string;
    uncompressedSize: number;
    getData(writer: TextWriter): Promise<string>;
    getData(writer: BlobWriter): Promise<Blob>;
  }
  export class ZipReader {
    constructor(reader: BlobReader);
    getEntries(): Promise<ZipEntry[]>;
  }
}
