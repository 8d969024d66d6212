import { el, escapeXml, xmlDocument } from "../http/xml.ts";

/** The sitemaps protocol's documents (sitemaps.org 0.9): an index of sitemaps, and sitemaps of addresses. */

export const SITEMAP_CONTENT_TYPE = "application/xml; charset=utf-8";
const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

export interface SitemapUrl {
  /** Absolute and canonical. */
  loc: string;
  lastModified?: Date;
}

/** W3C Datetime, as the protocol asks: to the second, in UTC. */
const lastmod = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

export function sitemapIndexXml(sitemaps: SitemapUrl[]): string {
  const entries = sitemaps.map(({ loc, lastModified }) => el("sitemap", {}, el("loc", {}, loc), lastModified && el("lastmod", {}, lastmod(lastModified))));
  return xmlDocument(el("sitemapindex", { xmlns: SITEMAP_NAMESPACE }, entries));
}

/*
 * A sitemap of addresses is written in parts (its opening, batches of addresses, its end), so a page
 * of 50,000 never sits whole in memory; xmlDocument writes a whole tree, so the parts are spelled
 * here, every value through the same escaping.
 */
export const urlsetStart = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}">`;
export const urlsetEnd = "</urlset>\n";
export const urlsXml = (urls: readonly SitemapUrl[]) =>
  urls.map(({ loc, lastModified }) => `<url><loc>${escapeXml(loc)}</loc>${lastModified ? `<lastmod>${lastmod(lastModified)}</lastmod>` : ""}</url>`).join("");
