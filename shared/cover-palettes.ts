import type { GenreKey } from "./genres.ts";

/**
 * The colours of the cover Plume makes for a Word book (docs/product.md#covers): a deep background
 * per genre, so a shelf of them reads by genre at a glance, with Plume's paper colour for the text
 * and a lighter band of the same hue. Every `ink` keeps at least 7:1 against its `background`
 * (checked in cover-palettes.test.ts), so the title stays legible even as a 200 px thumbnail.
 */
export interface CoverPalette {
  background: string;
  ink: string;
  accent: string;
}

const PAPER = "#faf6ee";

export const GENRE_COVER_PALETTES: Record<GenreKey, CoverPalette> = {
  negocios: { background: "#1f3a5f", ink: PAPER, accent: "#8fb3d9" },
  cripto: { background: "#2b2350", ink: PAPER, accent: "#b3a6e8" },
  cienciasMatematicas: { background: "#123f3a", ink: PAPER, accent: "#7fc4b8" },
  libroInfantil: { background: "#7a2e1c", ink: PAPER, accent: "#f2b38f" },
  cineMedios: { background: "#3a1f33", ink: PAPER, accent: "#e09ac6" },
  ficcion: { background: "#1e4a56", ink: PAPER, accent: "#8ccbd6" },
  novela: { background: "#5a2330", ink: PAPER, accent: "#e8a3ad" },
  romance: { background: "#6b1f3f", ink: PAPER, accent: "#f3a9c4" },
  misterio: { background: "#1c2230", ink: PAPER, accent: "#9aa8c7" },
  historia: { background: "#4a3414", ink: PAPER, accent: "#e0c088" },
  biografia: { background: "#2f3d1c", ink: PAPER, accent: "#bcd18e" },
  articulo: { background: "#33302c", ink: PAPER, accent: "#cbbfae" },
  apuntesEscolares: { background: "#1d3f66", ink: PAPER, accent: "#a6c8ee" },
  investigacionAcademica: { background: "#28343c", ink: PAPER, accent: "#a9bfcc" },
};

/** A book without a genre gets Plume's own accent colour. */
export const DEFAULT_COVER_PALETTE: CoverPalette = { background: "#143f48", ink: PAPER, accent: "#8ccbd6" };

export const coverPaletteOf = (genre: GenreKey | null): CoverPalette => (genre ? GENRE_COVER_PALETTES[genre] : DEFAULT_COVER_PALETTE);
