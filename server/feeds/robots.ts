/**
 * robots.txt (docs/product.md#feeds-and-crawling): every public page may be crawled; the API, the
 * OPDS catalog (for e-reader apps, its acquisitions behind a key), the reader and the screens of a
 * signed-in account may not. The sitemap index is named with its absolute address, as the protocol asks.
 */
const DISALLOWED = ["/api/", "/opds", "/books/*/read", "/rate", "/rating/", "/login", "/register", "/upload", "/edit-book", "/dashboard"];

export function robotsTxt(origin: string): string {
  return ["User-agent: *", "Allow: /", ...DISALLOWED.map((path) => `Disallow: ${path}`), "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
}
