/**
 * The admin panel's tabs, each at its own address (docs/product.md#screens): the overview shows every
 * section in one scroll (the dashboard's admin tab shows it too); the others one part each.
 */
export const ADMIN_SECTIONS = ["overview", "moderation", "users", "books", "payments"] as const;
export type AdminSectionKey = (typeof ADMIN_SECTIONS)[number];

export const adminSectionPath = (section: AdminSectionKey): string => (section === "overview" ? "/admin" : `/admin/${section}`);

/** The tab an address's `:section` names; undefined for one that names none (the screen answers "not found"). */
export function adminSectionOf(segment: string | undefined): AdminSectionKey | undefined {
  if (segment === undefined || segment === "") return "overview";
  return ADMIN_SECTIONS.find((section) => section !== "overview" && section === segment.toLowerCase());
}
