import { type XmlElement, el, xmlDocument } from "../http/xml.ts";

/**
 * An Atom 1.0 document (RFC 4287) from a plain description of a feed, written through the XML writer
 * of server/http/xml.ts: the feeds of new books (docs/product.md#feeds-and-crawling).
 */

export const ATOM_CONTENT_TYPE = "application/atom+xml; charset=utf-8";
const ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";

export interface AtomLink {
  rel: string;
  href: string;
  type?: string;
  title?: string;
  length?: number;
}

export interface AtomPerson {
  name: string;
  uri?: string;
}

export interface AtomCategory {
  term: string;
  label?: string;
  scheme?: string;
}

export interface AtomEntry {
  /** A permanent IRI: it must not change when the title does. */
  id: string;
  title: string;
  updated: Date;
  published?: Date;
  /** The entry's language, as xml:lang. */
  language?: string;
  authors: AtomPerson[];
  summary?: string;
  categories?: AtomCategory[];
  links: AtomLink[];
  /** Elements of other vocabularies (their namespaces declared on the feed). */
  extensions?: XmlElement[];
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle?: string;
  updated: Date;
  language?: string;
  /** Required by RFC 4287 unless every entry has its own; Plume always gives one. */
  authors: AtomPerson[];
  /** Must hold the feed's `self` link. */
  links: AtomLink[];
  icon?: string;
  /** Prefix → namespace of the vocabularies the extensions use. */
  namespaces?: Record<string, string>;
  extensions?: XmlElement[];
  entries: AtomEntry[];
}

const timestamp = (date: Date) => date.toISOString();

const person = ({ name, uri }: AtomPerson) => el("author", {}, el("name", {}, name), uri !== undefined && el("uri", {}, uri));

const link = ({ rel, href, type, title, length }: AtomLink) => el("link", { rel, href, type, title, length });

const category = ({ term, label, scheme }: AtomCategory) => el("category", { term, scheme, label });

const entry = (item: AtomEntry) =>
  el(
    "entry",
    { "xml:lang": item.language },
    el("id", {}, item.id),
    el("title", { type: "text" }, item.title),
    el("updated", {}, timestamp(item.updated)),
    item.published && el("published", {}, timestamp(item.published)),
    item.authors.map(person),
    item.summary !== undefined && el("summary", { type: "text" }, item.summary),
    (item.categories ?? []).map(category),
    item.links.map(link),
    item.extensions ?? [],
  );

export function atomFeedXml(feed: AtomFeed): string {
  const namespaces: Record<string, string> = { xmlns: ATOM_NAMESPACE };
  for (const [prefix, uri] of Object.entries(feed.namespaces ?? {})) namespaces[`xmlns:${prefix}`] = uri;
  return xmlDocument(
    el(
      "feed",
      { ...namespaces, "xml:lang": feed.language },
      el("id", {}, feed.id),
      el("title", { type: "text" }, feed.title),
      feed.subtitle !== undefined && el("subtitle", { type: "text" }, feed.subtitle),
      el("updated", {}, timestamp(feed.updated)),
      feed.authors.map(person),
      feed.links.map(link),
      feed.icon !== undefined && el("icon", {}, feed.icon),
      feed.extensions ?? [],
      feed.entries.map(entry),
    ),
  );
}
