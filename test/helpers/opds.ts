import { DOMParser } from "@xmldom/xmldom";
import { OPDS } from "r2-opds-js/dist/es8-es2017/src/opds/opds1/opds";
import { XML } from "r2-utils-js/dist/es8-es2017/src/_utils/xml-js-mapper";

export type { OPDS } from "r2-opds-js/dist/es8-es2017/src/opds/opds1/opds";
export type { Entry } from "r2-opds-js/dist/es8-es2017/src/opds/opds1/opds-entry";
export type { Link } from "r2-opds-js/dist/es8-es2017/src/opds/opds1/opds-link";

/**
 * An XML document parsed strictly: any warning or error of the parser throws, so a feed a lenient
 * app would still read, but a strict one would refuse, fails the test.
 */
export function parseXmlStrictly(xml: string) {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, "application/xml");
}

/**
 * An OPDS 1 feed as Thorium Reader reads it: Readium's r2-opds-js model, filled by its own XML
 * mapper from the parsed document (docs/decisions/0030-opds.md).
 */
export function parseOpdsFeed(xml: string): OPDS {
  const document = parseXmlStrictly(xml);
  if (document.documentElement?.localName !== "feed") throw new Error(`Not an Atom feed: <${document.documentElement?.localName}>`);
  // xmldom's Document has what the mapper reads (elements, attributes, namespaces) but not the DOM's whole type.
  return XML.deserialize<OPDS>(document as unknown as Parameters<typeof XML.deserialize>[0], OPDS);
}
