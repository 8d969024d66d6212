import { z } from "zod";
import { TEXT_INVALID, isSingleLineText } from "./typed-text.ts";

/** E-reader keys (docs/product.md#opds): the dashboard's form and the API validate with the same rules. */

export const E_READER_KEY_NAME_MAX = 60;
/** Keys an account may have in use at once: one per device, with room to spare. */
export const E_READER_KEYS_MAX = 20;

export const eReaderKeyNameSchema = z.object({
  name: z
    .string({ error: "eReaders.nameRequired" })
    .trim()
    .min(1, "eReaders.nameRequired")
    .max(E_READER_KEY_NAME_MAX, "eReaders.nameMax")
    .refine(isSingleLineText, TEXT_INVALID),
});
export type EReaderKeyNameInput = z.input<typeof eReaderKeyNameSchema>;

export const eReaderKeyIdSchema = z.object({ id: z.uuid("eReaders.keyIdInvalid") });

/** A key as its owner's list shows it: never the key itself, which is only kept hashed. */
export interface EReaderKey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The answer to creating a key: the only time the key is ever shown. */
export interface CreatedEReaderKey extends EReaderKey {
  key: string;
}
