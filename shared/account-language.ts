import { z } from "zod";
import { INTERFACE_LANGUAGES } from "./languages.ts";

/** The language a signed-in account's mail is written in: the interface language it last chose (docs/product.md#accounts). */
export const accountLanguageSchema = z.object({
  language: z.enum(INTERFACE_LANGUAGES, { error: "validation.invalid" }),
});
export type AccountLanguageInput = z.infer<typeof accountLanguageSchema>;
