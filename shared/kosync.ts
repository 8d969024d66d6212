import { z } from "zod";
import { MAX_LOCATOR_LENGTH } from "./reading.ts";

/**
 * KOReader's progress sync (the kosync protocol, docs/product.md#progress-sync): what its "Progress
 * sync" plugin sends. A document is named by the partial MD5 of its file (or, in KOReader's other
 * matching mode, the MD5 of its file name): 32 hexadecimal digits either way.
 */
export const KOSYNC_PATH = "/kosync";

export const koreaderDocumentSchema = z
  .string({ error: "kosync.documentInvalid" })
  .regex(/^[0-9a-fA-F]{32}$/, "kosync.documentInvalid")
  .transform((document) => document.toLowerCase());

export const koreaderDocumentParamsSchema = z.object({ document: koreaderDocumentSchema });

/** A progress as KOReader pushes it: its place in its own terms (a page, or an XPointer), how far through, and which device. */
export const koreaderProgressSchema = z.object({
  document: koreaderDocumentSchema,
  // KOReader sends a page as a number in some versions and as a string in others.
  progress: z
    .union([z.string(), z.number()], { error: "kosync.progressInvalid" })
    .transform(String)
    .pipe(z.string().min(1, "kosync.progressInvalid").max(MAX_LOCATOR_LENGTH, "kosync.progressInvalid")),
  percentage: z.number({ error: "kosync.percentageInvalid" }).min(0, "kosync.percentageInvalid").max(1, "kosync.percentageInvalid"),
  device: z.string({ error: "kosync.deviceInvalid" }).trim().min(1, "kosync.deviceInvalid").max(100, "kosync.deviceInvalid"),
  device_id: z.string({ error: "kosync.deviceInvalid" }).trim().min(1, "kosync.deviceInvalid").max(100, "kosync.deviceInvalid"),
});
export type KoreaderProgress = z.output<typeof koreaderProgressSchema>;

/** The progress KOReader is answered: the last place saved by any device or browser, in the terms of the file KOReader holds. */
export interface KoreaderSavedProgress {
  document: string;
  progress: string;
  percentage: number;
  device: string;
  device_id: string;
  /** Seconds since 1970, as KOReader compares them. */
  timestamp: number;
}
