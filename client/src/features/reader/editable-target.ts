/**
 * Whether a key went to something the reader types in, which keeps its keys. Read by name, not by
 * `instanceof`: a key pressed in an EPUB's chapter comes from that frame's document, whose elements
 * are not this window's HTMLElement.
 */
export function isEditable(target: EventTarget | null): boolean {
  const element = target as Partial<HTMLElement> | null;
  return Boolean(element?.isContentEditable) || ["INPUT", "TEXTAREA", "SELECT"].includes(element?.tagName ?? "");
}
