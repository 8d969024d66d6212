import { afterEach, describe, expect, it } from "vitest";
import { languageDetector } from "@/lib/language-detector";

const detect = () => languageDetector.detect() as string[];

afterEach(() => {
  window.history.replaceState(null, "", "/");
  localStorage.clear();
});

describe("languageDetector", () => {
  it("puts the language the address names first, before the stored choice", () => {
    localStorage.setItem("i18nextLng", "fr");
    window.history.replaceState(null, "", "/books/7-x?lang=es");
    expect(detect().slice(0, 2)).toEqual(["es", "fr"]);
  });

  it("ignores an address language the interface does not speak", () => {
    localStorage.setItem("i18nextLng", "fr");
    window.history.replaceState(null, "", "/books/7-x?lang=de");
    expect(detect()[0]).toBe("fr");
  });
});
