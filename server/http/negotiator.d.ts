// negotiator 1.x ships no types, and @types/negotiator describes 0.6, without the `preferred` option.
// Only what compress-answers.ts uses.
declare module "negotiator" {
  import type { IncomingMessage } from "node:http";

  export default class Negotiator {
    constructor(request: Pick<IncomingMessage, "headers">);
    /** The best of `available` for the request's Accept-Encoding; ties go to `preferred`'s order. */
    encoding(available: string[], options?: { preferred?: string[] }): string | undefined;
  }
}
