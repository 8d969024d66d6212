import { z } from "zod";
import { UNSUBSCRIBE_TOKEN } from "./follows.ts";
import { DIGEST_FREQUENCIES } from "./returning-readers.ts";

/**
 * The follows' checks (docs/product.md#follows), apart from shared/follows.ts so the first screens
 * that show a Follow button never load zod (docs/decisions/0016).
 */
export const digestFrequencySchema = z.object({
  digestFrequency: z.enum(DIGEST_FREQUENCIES, { error: "validation.invalid" }),
});
export type DigestFrequencyInput = z.infer<typeof digestFrequencySchema>;

export const unsubscribeQuerySchema = z.object({
  token: z.string({ error: "following.unsubscribe.invalidLink" }).regex(UNSUBSCRIBE_TOKEN, "following.unsubscribe.invalidLink"),
});
