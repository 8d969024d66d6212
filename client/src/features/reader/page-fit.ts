/**
 * How a page is sized (docs/product.md#reading): "page" shows the whole page in the space the reader
 * has (the default), "width" fills its width; a zoom sets a scale of its own.
 */
export type PageFit = "page" | "width";
export const PAGE_FITS: readonly PageFit[] = ["page", "width"];

export interface Size {
  width: number;
  height: number;
}

/** Zoom steps and bounds, for a PDF's scale and a reflowed book's text size alike. */
export const ZOOM_STEP = 1.25;
export const MIN_SCALE = 0.25;
export const MAX_SCALE = 4;

export const clampScale = (scale: number) => Math.min(Math.max(scale, MIN_SCALE), MAX_SCALE);

/**
 * The scale at which a page of `page` size (at scale 1) fits `room`: its width, or its width and
 * height both. Held within the zoom's bounds, however small the room (a window being resized to nothing).
 */
export function fitScale(page: Size, room: Size, fit: PageFit): number {
  const byWidth = room.width / page.width;
  const scale = fit === "width" ? byWidth : Math.min(byWidth, room.height / page.height);
  return clampScale(scale);
}

/** The reader's sizing choice for a format: a fit, and a zoom that overrides it until a fit is chosen again. */
export interface PageLayout {
  fit: PageFit;
  /** null while the fit decides. */
  scale: number | null;
}

export const DEFAULT_LAYOUT: PageLayout = { fit: "page", scale: null };

/** A stored layout, or undefined when it is not one (an older version's, or edited by hand). */
export function parseLayout(stored: string): PageLayout | undefined {
  try {
    const value = JSON.parse(stored) as Partial<PageLayout>;
    const fit = PAGE_FITS.find((known) => known === value.fit);
    if (!fit) return undefined;
    const scale = typeof value.scale === "number" && Number.isFinite(value.scale) ? clampScale(value.scale) : null;
    return { fit, scale };
  } catch {
    return undefined;
  }
}
