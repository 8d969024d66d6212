import { FOLLOWING_ATOM_PATH, FOLLOWING_OPDS_PATH } from "../../shared/follows.ts";
import { atomFeedXml } from "../feeds/atom.ts";
import { bookEntry as atomBookEntry } from "../feeds/feeds-service.ts";
import { el, type XmlElement, xmlDocument } from "../http/xml.ts";
import { ACQUISITION_TYPE, NAVIGATION_TYPE, bookEntry as opdsBookEntry, opdsPaths } from "../opds/opds-feeds.ts";
import type { FollowedBookRow, NewEditionRow } from "./follows-repository.ts";

/**
 * The reader's personal feeds (docs/product.md#follows): the same entries as the home's row, as an
 * OPDS acquisition feed for e-reader apps and as Atom for feed readers. A new edition is an entry of
 * its own, `updated` at the edition's date, so an app that has the book sees it change; feeds speak
 * English, as the catalog's do.
 */
export interface FollowingFeedSite {
  origin: string;
  productName: string;
}

type Item = FollowedBookRow | NewEditionRow;

const isEdition = (item: Item): item is NewEditionRow => "editionNumber" in item;
const entryId = (origin: string, item: Item) => (isEdition(item) ? `${origin}/books/${item.id}/editions/${item.editionNumber}` : `${origin}/books/${item.id}`);
const entryTitle = (item: Item) => (isEdition(item) ? `${item.title} (new edition ${item.editionNumber})` : item.title);
const lastUpdate = (items: Item[], otherwise: Date) => items.reduce((latest, item) => (item.at > latest ? item.at : latest), items.length > 0 ? new Date(0) : otherwise);

/** The catalog's entry of the book, with the edition's identity, title, date and changelog. */
function opdsEntry(site: FollowingFeedSite, item: Item): XmlElement {
  const entry = opdsBookEntry(site, { ...item, updatedAt: item.at });
  const replaced: Record<string, XmlElement> = { id: el("id", {}, entryId(site.origin, item)), title: el("title", {}, entryTitle(item)) };
  const children = entry.children.map((child) => (typeof child === "object" && child !== null && "name" in child && replaced[child.name] ? replaced[child.name] : child));
  const changelog = isEdition(item) && item.changelog ? [el("content", { type: "text" }, item.changelog)] : [];
  return { ...entry, children: [...children, ...changelog] };
}

export function followingOpdsFeed(site: FollowingFeedSite, items: Item[], at: Date): string {
  const self = `${site.origin}${FOLLOWING_OPDS_PATH}`;
  return xmlDocument(
    el(
      "feed",
      { xmlns: "http://www.w3.org/2005/Atom", "xmlns:dc": "http://purl.org/dc/terms/", "xmlns:opds": "http://opds-spec.org/2010/catalog", "xml:lang": "en" },
      el("id", {}, self),
      el("title", {}, `${site.productName}: new from authors you follow`),
      el("updated", {}, lastUpdate(items, at).toISOString()),
      el("author", {}, el("name", {}, site.productName), el("uri", {}, `${site.origin}/`)),
      el("link", { rel: "self", href: self, type: ACQUISITION_TYPE }),
      el("link", { rel: "start", href: `${site.origin}${opdsPaths.root}`, type: NAVIGATION_TYPE }),
      el("link", { rel: "up", href: `${site.origin}${opdsPaths.root}`, type: NAVIGATION_TYPE }),
      el("link", { rel: "alternate", href: `${site.origin}${FOLLOWING_ATOM_PATH}`, type: "application/atom+xml" }),
      items.map((item) => opdsEntry(site, item)),
    ),
  );
}

export function followingAtomFeed(site: FollowingFeedSite, items: Item[], at: Date): string {
  const self = `${site.origin}${FOLLOWING_ATOM_PATH}`;
  return atomFeedXml({
    id: self,
    title: `${site.productName}: new from authors you follow`,
    subtitle: "New books of the authors you follow, and new editions of their books and of the books you took.",
    updated: lastUpdate(items, at),
    language: "en",
    authors: [{ name: site.productName, uri: `${site.origin}/` }],
    links: [
      { rel: "self", type: "application/atom+xml", href: self },
      { rel: "alternate", type: "text/html", href: `${site.origin}/` },
    ],
    namespaces: { media: "http://search.yahoo.com/mrss/" },
    entries: items.map((item) => {
      const entry = atomBookEntry(site, { ...item, updatedAt: item.at });
      const changelog = isEdition(item) && item.changelog ? item.changelog : undefined;
      return { ...entry, id: entryId(site.origin, item), title: entryTitle(item), summary: changelog ?? entry.summary };
    }),
  });
}
