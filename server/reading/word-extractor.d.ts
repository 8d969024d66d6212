// word-extractor ships no types. Only what word-view.ts uses.
declare module "word-extractor" {
  interface ExtractedDocument {
    /** The document's main text, paragraphs separated by newlines. */
    getBody(): string;
  }

  export default class WordExtractor {
    extract(source: string | Buffer): Promise<ExtractedDocument>;
  }
}
