/**
 * Whether a string is text a person could have typed. Control characters and halves of surrogate
 * pairs are only ever injected: PostgreSQL cannot store NUL at all (the insert fails), and a lone
 * surrogate would be stored silently changed to U+FFFD. Refusing them keeps every stored string
 * exactly as it was sent, and displayable.
 */
const NOT_SINGLE_LINE = /[\p{Cc}\p{Cs}]/u;
/** The same, but tabs and line breaks are fine (a description has paragraphs). */
const NOT_MULTI_LINE = /[^\P{Cc}\t\n\r]|\p{Cs}/u;

export const isSingleLineText = (value: string) => !NOT_SINGLE_LINE.test(value);
export const isMultiLineText = (value: string) => !NOT_MULTI_LINE.test(value);

/** The key of the message shown for such text (no form can produce it, so a generic one is enough). */
export const TEXT_INVALID = "validation.invalid";
