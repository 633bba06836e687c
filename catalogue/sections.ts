export const SECTIONS = [
  { id: "home", path: "/", label: "Home", menu: true, tile: false },
  { id: "now", path: "/now", label: "Now", menu: true, tile: true },
  { id: "about", path: "/about", label: "About", menu: true, tile: true },
  { id: "apps", path: "/apps", label: "Apps", menu: true, tile: true },
  { id: "notes", path: "/notes", label: "Notes", menu: true, tile: true },
  { id: "write", path: "/write", label: "Write", menu: true, tile: true },
  { id: "work", path: "/work", label: "Work", menu: true, tile: true },
  { id: "contact", path: "/contact", label: "Contact", menu: true, tile: true },
  { id: "podcast", path: "/podcast", label: "Podcast", menu: true, tile: false },
  { id: "videos", path: "/videos", label: "Videos", menu: true, tile: false },
  { id: "updates", path: "/updates", label: "Updates", menu: true, tile: true },
  { id: "stats", path: "/stats", label: "Reading stats", menu: false, tile: false, parent: "notes" },
  { id: "shelves", path: "/notes/shelves", label: "Shelves", menu: false, tile: false, parent: "notes" },
  { id: "quotes", path: "/quotes", label: "Quotes", menu: false, tile: false, parent: "notes" },
] as const;

export type SectionId = (typeof SECTIONS)[number]["id"];

export const SECTION_PATHS = SECTIONS.map((section) => section.path);

export type SectionLink = { label: string; path: (typeof SECTION_PATHS)[number] };

const linksOf = (sections: readonly (typeof SECTIONS)[number][]): SectionLink[] =>
  sections.map(({ label, path }) => ({ label, path }));

/** What the menu and the home tiles hold when site.yaml does not say. */
export const DEFAULT_MENU = linksOf(SECTIONS.filter((section) => section.menu));
export const DEFAULT_TILES = linksOf(SECTIONS.filter((section) => section.tile));

export function sectionOf(id: SectionId): (typeof SECTIONS)[number] {
  const section = SECTIONS.find((candidate) => candidate.id === id);
  if (!section) throw new Error(`No section "${id}"`);
  return section;
}
