import { OTHER_SCREEN_TEXTS } from "@shared/languages";
import { type ComponentType, lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { loadOtherScreenTexts } from "@/lib/i18n";

/**
 * A screen fetched when it is first shown, together with the texts of the screens after the first:
 * a first visit lands on the landing page or the catalog, which come with the first script, and every
 * other screen (with the forms, schemas and dropzones only it needs) waits until it is wanted.
 *
 * A language switch loads the namespaces wanted when it starts. One that starts while a screen is
 * still loading would show that screen without its texts, so the screen also asks for them by name:
 * react-i18next then suspends it until they are loaded in the language it is shown in.
 */
export function lazyScreen(load: () => Promise<ComponentType>): ComponentType {
  let loading: Promise<{ default: ComponentType }> | undefined;
  // Started before the texts' check can suspend, so that the script and the texts download side by side.
  const startLoading = () => (loading ??= Promise.all([load(), loadOtherScreenTexts()]).then(([screen]) => ({ default: screen })));
  const Screen = lazy(startLoading);
  return function ScreenWithItsTexts() {
    void startLoading();
    useTranslation(OTHER_SCREEN_TEXTS);
    return <Screen />;
  };
}

export type FirstScreen = ComponentType & {
  /** Fetches the screen; the app awaits it before its first render when the address shows this screen. */
  preload: () => Promise<unknown>;
};

/**
 * A screen a first visit can land on that still comes as a chunk of its own (the landing page, a book's
 * page: docs/decisions/0028), with the first screens' texts only. When the app waits for `preload()`
 * before its first render, as it does for the screen of the address, the screen is drawn at once:
 * no loading line first, and nothing below it jumps when it arrives. Elsewhere it loads like any lazy screen.
 */
export function firstScreen(load: () => Promise<ComponentType>): FirstScreen {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () =>
    (loading ??= load().then((screen) => {
      loaded = screen;
      return screen;
    }));
  const Lazy = lazy(() => preload().then((screen) => ({ default: screen })));
  function Screen() {
    // Decided once per mount: a screen drawn from the lazy wrapper stays drawn by it.
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready /> : <Lazy />;
  }
  return Object.assign(Screen, { preload });
}
