import { OTHER_SCREEN_TEXTS } from "@shared/languages";
import { type ComponentType, lazy } from "react";
import { useTranslation } from "react-i18next";
import { loadOtherScreenTexts } from "@/i18n";

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
