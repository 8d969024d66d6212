import { DOMParser } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import { el, escapeXml, xmlDocument } from "./xml.ts";

/** Parses strictly: any warning or error of the parser fails the test. */
function parse(xml: string) {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(xml, "application/xml");
}

describe("the XML writer", () => {
  it("writes elements, attributes and text, skipping what is left undefined", () => {
    const xml = xmlDocument(
      el("feed", { xmlns: "http://www.w3.org/2005/Atom", lang: undefined }, el("title", {}, "A & B"), undefined, false, [el("link", { href: "/x?a=1&b=2" })]),
    );
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>A &amp; B</title><link href="/x?a=1&amp;b=2"/></feed>\n',
    );
  });

  it("keeps a hostile title text, in content and in attributes", () => {
    const hostile = `</title><script>alert("x")</script>' &amp;`;
    const document = parse(xmlDocument(el("entry", { label: hostile }, el("title", {}, hostile))));
    const title = document.getElementsByTagName("title")[0]!;
    expect(title.textContent).toBe(hostile);
    expect(document.documentElement!.getAttribute("label")).toBe(hostile);
    expect(document.getElementsByTagName("script")).toHaveLength(0);
  });

  it("drops the characters XML cannot carry, so one in a title cannot break the document", () => {
    const withControls = "Bell\u0007 form\u000C feed\u0000 \uFFFF lone \uD800 kept:\t\n astral 𝔸 é";
    expect(escapeXml(withControls)).toBe("Bell form feed  lone  kept:\t\n astral 𝔸 é");
    expect(parse(xmlDocument(el("title", {}, withControls))).documentElement!.textContent).toBe("Bell form feed  lone  kept:\t\n astral 𝔸 é");
  });
});
