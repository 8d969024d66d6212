import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from "@shared/auth";
import { BOOK_FILE_MAX_BYTES, CATALOG_MAX_LIMIT, COVER_MAX_BYTES, DESCRIPTION_MAX, SEARCH_MAX, TITLE_MAX } from "@shared/books";
import { GENRE_KEYS } from "@shared/genres";
import { INFO_PAGES } from "@shared/info-pages";
import { INTERFACE_LANGUAGES } from "@shared/languages";
import { ALL_TEXTS, TEXTS_BY_NAMESPACE } from "@shared/locales/all-texts";
import { META_DESCRIPTION_MAX } from "@shared/page-meta";
import { describe, expect, it, vi } from "vitest";
import i18n from "@/lib/i18n";

const { en, es } = ALL_TEXTS;

/** The source of every shared rule module: their messages are translation keys. */
const sharedSources = import.meta.glob<string>(["/shared/*.ts", "!/shared/*.test.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** Every leaf of a nested translation file as "section.key" → text. */
function flatten(node: unknown, prefix = ""): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  if (typeof node !== "object" || node === null) {
    leaves.set(prefix, node);
    return leaves;
  }
  for (const [key, child] of Object.entries(node)) {
    for (const [path, value] of flatten(child, prefix ? `${prefix}.${key}` : key)) leaves.set(path, value);
  }
  return leaves;
}

const flatLocales = Object.entries(ALL_TEXTS).map(([language, texts]) => [language, flatten(texts)] as const);
const english = flatten(en);

/** Each file as loaded: a key must sit in the same namespace in every language, or one language loads without it. */
const namespaceFiles = Object.entries(TEXTS_BY_NAMESPACE).flatMap(([namespace, byLanguage]) =>
  Object.entries(byLanguage).map(([language, texts]) => [`${namespace}/${language}`, namespace, flatten(texts)] as const),
);

describe("locale files", () => {
  it.each(namespaceFiles)("%s has every key its namespace has in any language, each a non-empty text", (_file, namespace, texts) => {
    const namespaceKeys = new Set(namespaceFiles.filter(([, other]) => other === namespace).flatMap(([, , other]) => [...other.keys()]));
    expect([...namespaceKeys].filter((key) => !texts.has(key))).toEqual([]);
    const empty = [...texts].filter(([, value]) => typeof value !== "string" || value.trim() === "").map(([key]) => key);
    expect(empty).toEqual([]);
  });

  // ALL_TEXTS, read by the server and the tests, merges the namespaces section by section: a split section would lose half.
  it.each(INTERFACE_LANGUAGES)("%s has no section in two namespaces", (language) => {
    const sections = Object.values(TEXTS_BY_NAMESPACE).flatMap((byLanguage) => Object.keys(byLanguage[language]));
    expect(sections.filter((section, index) => sections.indexOf(section) !== index)).toEqual([]);
  });

  it("translates every message key of the shared rules (sign-in, books)", () => {
    const sources = Object.values(sharedSources);
    expect(Object.keys(sharedSources)).toContain("/shared/auth.ts");
    const usedKeys = new Set(sources.flatMap((source) => source.match(/(?<=["'`])(?:validation|errors|upload)\.\w+(?=["'`])/g) ?? []));
    expect(usedKeys).toContain("validation.passwordsMismatch");
    expect([...usedKeys].filter((key) => !english.has(key))).toEqual([]);
  });

  it.each([
    "validation_failed",
    "invalid_json",
    "unauthorized",
    "forbidden",
    "not_found",
    "username_taken",
    "invalid_credentials",
    "internal_error",
    "payload_too_large",
    "rate_limited",
    "server_busy",
    "unsupported_media_type",
    "bad_request",
    "already_rated",
    "file_too_large",
    "file_invalid_type",
    "document_has_macros",
    "document_reaches_out",
    "document_unpacks_too_large",
    "document_text_too_large",
    "document_damaged",
    "malformed_multipart",
    "too_many_parts",
    "field_too_long",
    "unexpected_file",
    "storage_quota_exceeded",
    "storage_full",
    "duplicate_file",
    "duplicate_own_file",
  ])("translates the server error code %s", (code) => {
    expect(english.has(`errors.${code}`) || english.has(`screenErrors.${code}`)).toBe(true);
  });

  // The server sends them as the pages' meta descriptions, which search engines cut past this length.
  it.each(flatLocales)("%s describes each info page within a meta description's length", (_language, texts) => {
    for (const { key } of INFO_PAGES) expect(String(texts.get(`infoPages.${key}.description`)).length, key).toBeLessThanOrEqual(META_DESCRIPTION_MAX);
  });

  it("labels every genre key of docs/product.md#books and the catalog's 'all'", () => {
    const genreKeys = [...english.keys()].filter((key) => key.startsWith("genres.")).map((key) => key.slice("genres.".length));
    expect(genreKeys.sort()).toEqual(["all", ...GENRE_KEYS].sort());
  });

  // The limits are written into the sentences (the server quotes them too), so they must follow shared/auth.ts.
  it.each(flatLocales)("%s states the same limits as the shared rules", (_language, texts) => {
    const limits: Record<string, number> = {
      "validation.usernameMin": USERNAME_MIN,
      "validation.usernameMax": USERNAME_MAX,
      "validation.passwordMin": PASSWORD_MIN,
      "validation.passwordMax": PASSWORD_MAX,
      "validation.nameMax": NAME_MAX,
      "validation.identifierMax": EMAIL_MAX,
      "validation.emailMax": EMAIL_MAX,
      "auth.register.passwordHint": PASSWORD_MIN,
      "validation.titleMax": TITLE_MAX,
      "validation.descriptionMax": DESCRIPTION_MAX,
      "validation.searchMax": SEARCH_MAX,
      "validation.limitInvalid": CATALOG_MAX_LIMIT,
      "upload.fileTooLarge": BOOK_FILE_MAX_BYTES / 1024 / 1024,
      "upload.imageTooLarge": COVER_MAX_BYTES / 1024 / 1024,
    };
    for (const [key, limit] of Object.entries(limits)) expect(texts.get(key), key).toContain(String(limit));
  });

  it("uses the product's Spanish wording", () => {
    expect(es.validation.usernameMin).toBe("El usuario debe tener al menos 3 caracteres");
    expect(es.validation.passwordMin).toBe("La contraseña debe tener al menos 6 caracteres");
    expect(es.validation.emailInvalid).toBe("Introduce un email válido");
    expect(es.validation.firstNameRequired).toBe("El nombre es requerido");
    expect(es.validation.lastNameRequired).toBe("El apellido es requerido");
    expect(es.validation.passwordsMismatch).toBe("Las contraseñas no coinciden");
    expect(en.notFound.title).toBe("404 Page Not Found");
  });
});

describe("i18n setup", () => {
  it("keeps <html lang> on the current language and remembers the choice", async () => {
    await i18n.changeLanguage("fr");
    expect(document.documentElement.lang).toBe("fr");
    expect(localStorage.getItem("i18nextLng")).toBe("fr");
    // Mirrored for the server, which then preloads the right texts with the page.
    expect(document.cookie).toContain("plume-lang=fr");
    expect(i18n.t("nav.catalog")).toBe("Catalogue");
  });

  // changeLanguage() without a language runs the detection again: stored choice, then browser, then <html lang>.
  it("reads a regional browser language as its base language", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["es-ES", "en-GB"]);
    await i18n.changeLanguage();
    expect(i18n.language).toBe("es");
    expect(document.documentElement.lang).toBe("es");
  });

  it("prefers the stored choice over the browser language", async () => {
    localStorage.setItem("i18nextLng", "fr");
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["es-ES"]);
    await i18n.changeLanguage();
    expect(i18n.language).toBe("fr");
  });

  it("goes by the browser language when local storage is refused", async () => {
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    });
    const store = vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    });
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["fr-FR"]);
    await i18n.changeLanguage();
    expect(i18n.language).toBe("fr");
    expect(store).toHaveBeenCalledWith("i18nextLng", "fr");
  });

  it("falls back to English for a language it does not have", async () => {
    vi.spyOn(navigator, "languages", "get").mockReturnValue(["de-DE"]);
    document.documentElement.lang = "de";
    await i18n.changeLanguage();
    expect(i18n.language).toBe("en");
  });
});
