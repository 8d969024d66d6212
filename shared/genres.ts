/** Genres are stored as these stable keys (docs/product.md#books); labels are translated under `genres.<key>`. */
export const GENRE_KEYS = [
  "negocios",
  "cripto",
  "cienciasMatematicas",
  "libroInfantil",
  "cineMedios",
  "ficcion",
  "novela",
  "romance",
  "misterio",
  "historia",
  "biografia",
  "articulo",
  "apuntesEscolares",
  "investigacionAcademica",
] as const;
export type GenreKey = (typeof GENRE_KEYS)[number];

/** The older display values (docs/product.md#books), still accepted from API callers and mapped to keys. */
const LEGACY_GENRE_VALUES = new Map<string, GenreKey>([
  ["negocios", "negocios"],
  ["libro infantil", "libroInfantil"],
  ["ficción", "ficcion"],
  ["novela", "novela"],
  ["romance", "romance"],
  ["misterio", "misterio"],
  ["biografía", "biografia"],
  ["artículo", "articulo"],
  ["investigación académica", "investigacionAcademica"],
  ["cripto", "cripto"],
]);

const KEYS_BY_LOWERCASE = new Map<string, GenreKey>(GENRE_KEYS.map((key) => [key.toLowerCase(), key]));

/** The genre key for a key or a legacy display value, in any letter case; undefined when unknown. */
export function toGenreKey(value: string): GenreKey | undefined {
  const normalized = value.trim().normalize("NFC").toLowerCase();
  return KEYS_BY_LOWERCASE.get(normalized) ?? LEGACY_GENRE_VALUES.get(normalized);
}
