import { describe, expect, it } from "vitest";
import { PAGE_TEXT_CHARS, paginate, sanitizeBookHtml } from "./word-view.ts";

describe("sanitizeBookHtml (docs/decisions/0029-reading-in-the-browser.md)", () => {
  it.each([
    ["<p>a<script>alert(1)</script>b</p>", "<p>ab</p>"],
    ['<p onclick="alert(1)" style="color:red" class="x" id="main-content">text</p>', "<p>text</p>"],
    ['<img src="x" onerror="alert(1)">', ""],
    ['<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="svg">', ""],
    ['<img src="https://tracker.example/pixel.png">', ""],
    ['<img src="data:image/png;base64,iVBORw0KGgo=" alt="a &quot;cover&quot;" onload="x()">', '<img src="data:image/png;base64,iVBORw0KGgo=" alt="a &quot;cover&quot;" />'],
    ['<a href="javascript:alert(1)">j</a>', "<a>j</a>"],
    ['<a href="JaVaScRiPt&colon;alert(1)">j</a>', "<a>j</a>"],
    ['<a href="data:text/html,<script>alert(1)</script>">d</a>', "<a>d</a>"],
    ['<a href="//evil.example/">p</a>', "<a>p</a>"],
    ['<a href="#footnote-1" id="ref-1">1</a>', "<a>1</a>"],
    [
      '<a href="https://example.org/" target="_top" rel="opener">ok</a>',
      '<a href="https://example.org/" rel="nofollow noopener noreferrer" target="_blank">ok</a>',
    ],
    ['<a href="mailto:author@example.org">write</a>', '<a href="mailto:author@example.org" rel="nofollow noopener noreferrer" target="_blank">write</a>'],
    ["<iframe src=\"https://example.org\"></iframe><object data=\"x\"></object><style>p{}</style><p>kept</p>", "<p>kept</p>"],
    ["<svg><script>alert(1)</script></svg><math><mi>x</mi></math>", "x"],
    ['<table><tr><td colspan="2" onmouseover="x()">cell</td></tr></table>', '<table><tr><td colspan="2">cell</td></tr></table>'],
  ])("%s → %s", (input, output) => {
    expect(sanitizeBookHtml(input)).toBe(output);
  });

  it("keeps text that looks like markup as text", () => {
    expect(sanitizeBookHtml("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
  });
});

describe("paginate", () => {
  const paragraph = (chars: number, letter = "x") => `<p>${letter.repeat(chars)}</p>`;

  it("keeps a short document on one page, and an empty one as one empty page", () => {
    expect(paginate("<h1>Title</h1><p>Short.</p>")).toEqual(["<h1>Title</h1><p>Short.</p>"]);
    expect(paginate("")).toEqual([""]);
  });

  it("cuts between top-level elements once a page holds about PAGE_TEXT_CHARS characters", () => {
    const third = Math.ceil(PAGE_TEXT_CHARS / 3);
    const html = [paragraph(third, "a"), paragraph(third, "b"), paragraph(third, "c"), paragraph(10, "d")].join("");
    const pages = paginate(html);
    expect(pages).toEqual([paragraph(third, "a") + paragraph(third, "b") + paragraph(third, "c"), paragraph(10, "d")]);
    expect(pages.join("")).toBe(html);
  });

  it("never cuts inside an element, however long, nor inside nested ones", () => {
    const nested = `<ul><li><p>${"n".repeat(PAGE_TEXT_CHARS)}</p></li><li>two<br />lines</li></ul>`;
    const pages = paginate(nested + paragraph(5));
    expect(pages).toEqual([nested, paragraph(5)]);
  });

  it("starts a chapter (a first-level heading) on a new page", () => {
    const pages = paginate(`<h1>One</h1>${paragraph(50)}<h1>Two</h1>${paragraph(50)}<h2>Two, part</h2>${paragraph(5)}`);
    expect(pages).toEqual([`<h1>One</h1>${paragraph(50)}`, `<h1>Two</h1>${paragraph(50)}<h2>Two, part</h2>${paragraph(5)}`]);
  });

  it("counts entities as one character and images by weight, not by their data", () => {
    const entities = `<p>${"&amp;".repeat(PAGE_TEXT_CHARS - 10)}</p>`;
    expect(paginate(entities + paragraph(5))).toHaveLength(1);
    const image = `<p><img src="data:image/png;base64,${"A".repeat(100_000)}" alt="" /></p>`;
    expect(paginate(image + paragraph(5))).toHaveLength(1);
  });
});
