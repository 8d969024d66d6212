/**
 * A small XML writer for the documents Plume serves (OPDS and Atom feeds, OpenSearch descriptions):
 * elements are built as values and written once, and every text and attribute value is escaped on
 * the way out, so no caller can forget to (docs/decisions/0030-opds.md, why not a library).
 * Element and attribute names are the caller's constants, never data.
 */

type AttributeValue = string | number | undefined;
export type XmlChild = string | XmlElement | undefined | false | readonly XmlChild[];

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly children: readonly XmlChild[];
}

/** An element; attributes left undefined are not written, children left undefined or false are skipped. */
export function el(name: string, attributes: Record<string, AttributeValue> = {}, ...children: XmlChild[]): XmlElement {
  return { name, attributes, children };
}

/**
 * What XML 1.0 cannot carry at all, escaped or not: control characters but tab, line feed and
 * carriage return, U+FFFE, U+FFFF and lone surrogates. One in a title would make the whole feed
 * unreadable to a strict parser, so it is dropped.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text or an attribute value as XML: characters XML cannot hold dropped, the markup characters escaped. */
export function escapeXml(value: string): string {
  return value.replace(NOT_XML, "").replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

function write(node: XmlChild, out: string[]): void {
  if (node === undefined || node === false) return;
  if (typeof node === "string") {
    out.push(escapeXml(node));
    return;
  }
  if (isChildList(node)) {
    for (const child of node) write(child, out);
    return;
  }
  out.push("<", node.name);
  for (const [name, value] of Object.entries(node.attributes)) {
    if (value !== undefined) out.push(" ", name, '="', escapeXml(String(value)), '"');
  }
  if (node.children.length === 0) {
    out.push("/>");
    return;
  }
  out.push(">");
  for (const child of node.children) write(child, out);
  out.push("</", node.name, ">");
}

const isChildList = (node: XmlElement | readonly XmlChild[]): node is readonly XmlChild[] => Array.isArray(node);

/** A whole document: the XML declaration (UTF-8) and its root element. */
export function xmlDocument(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, out);
  out.push("\n");
  return out.join("");
}
