import { OTHER_SCREEN_TEXTS } from "@shared/languages";
import { ALL_TEXTS } from "@shared/locales/all-texts";
import { render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { expect, it, vi } from "vitest";

it("shows a screen in the language of a switch that started while the screen was loading, with all its texts", async () => {
  // A fresh i18next that has loaded nothing but the first screens' texts, as on a first visit.
  vi.resetModules();
  const { default: i18n, i18nReady } = await import("@/lib/i18n");
  const { lazyScreen } = await import("@/lib/lazy-screen");
  const { useTranslation } = await import("react-i18next");
  await i18nReady;
  expect(i18n.language).toBe("en");
  expect(i18n.hasLoadedNamespace(OTHER_SCREEN_TEXTS)).toBe(false);

  function HomeTitle() {
    const { t } = useTranslation();
    return <h1>{t("home.popular.title")}</h1>;
  }
  const Home = lazyScreen(async () => HomeTitle);

  const switching = i18n.changeLanguage("fr");
  render(
    <Suspense fallback={null}>
      <Home />
    </Suspense>,
  );
  await switching;

  expect(await screen.findByRole("heading", { name: ALL_TEXTS.fr.home.popular.title })).toBeInTheDocument();
  expect(i18n.hasLoadedNamespace(OTHER_SCREEN_TEXTS, { lng: "fr" })).toBe(true);
});

it("draws a first screen at once when its chunk was awaited before the render, and through Suspense otherwise", async () => {
  const { firstScreen } = await import("@/lib/lazy-screen");
  const Landing = firstScreen(async () => () => <h1>Landing</h1>);
  await Landing.preload();
  render(
    <Suspense fallback={<p>Loading</p>}>
      <Landing />
    </Suspense>,
  );
  expect(screen.getByRole("heading", { name: "Landing" })).toBeInTheDocument();
  expect(screen.queryByText("Loading")).toBeNull();

  const Book = firstScreen(async () => () => <h1>Book</h1>);
  render(
    <Suspense fallback={<p>Loading</p>}>
      <Book />
    </Suspense>,
  );
  expect(screen.getByText("Loading")).toBeInTheDocument();
  expect(await screen.findByRole("heading", { name: "Book" })).toBeInTheDocument();
});
