/** A cookie's value in a `Cookie` header (or `document.cookie`), if it is there and plain (letters, digits, `_`). */
export function cookieValue(cookies: string, name: string): string | undefined {
  for (const pair of cookies.split(";")) {
    const [key, value] = pair.trim().split("=");
    if (key === name && value !== undefined && /^\w+$/.test(value)) return value;
  }
  return undefined;
}

const ONE_YEAR_IN_SECONDS = 365 * 24 * 60 * 60;

/** The `document.cookie` assignment that keeps a reader's choice for a year on this site, or forgets it (undefined). */
export const choiceCookie = (name: string, value: string | undefined) =>
  value === undefined ? `${name}=; path=/; max-age=0; samesite=lax` : `${name}=${value}; path=/; max-age=${ONE_YEAR_IN_SECONDS}; samesite=lax`;
