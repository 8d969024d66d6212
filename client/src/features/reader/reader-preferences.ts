import { useCallback, useState } from "react";

/**
 * A reader's choices in this browser (theme, fit, notices seen): kept in local storage, which can be
 * refused (site data blocked) or hold anything a past version wrote. Then the choice lasts the visit.
 */
export function readPreference<T>(key: string, parse: (stored: string) => T | undefined): T | undefined {
  try {
    const stored = localStorage.getItem(key);
    return stored === null ? undefined : parse(stored);
  } catch {
    return undefined;
  }
}

export function writePreference(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused: the choice holds for this visit only.
  }
}

/** A state remembered under `key`; `parse` says what a stored string means, undefined for nothing usable. */
export function usePreference<T>(key: string, parse: (stored: string) => T | undefined, fallback: T, format: (value: T) => string = String) {
  const [value, setValue] = useState<T>(() => readPreference(key, parse) ?? fallback);
  const choose = useCallback(
    (next: T) => {
      setValue(next);
      writePreference(key, format(next));
    },
    [key, format],
  );
  return [value, choose] as const;
}
