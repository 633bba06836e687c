/**
 * What a page route says about itself in its `handle` (read with `useMatches()` by the visible
 * breadcrumb and the root, and from the meta function's `matches` by the JSON-LD breadcrumb): its
 * section of catalogue/sections.ts, for an item page the item's name from the page's loader data,
 * and whether the page needs React in the browser at all.
 */
import { type SectionId, sectionOf } from "../../catalogue/sections.ts";
import type { Crumb } from "../../catalogue/structured-data.ts";
import type { PlayerHost } from "./player-probe.ts";

/**
 * Pages hydrate only when an interaction needs React (an instant filter, a form that answers in
 * place, players loading one after another); every other page ships no module script at all.
 */
export type HydrationHandle = { hydrate?: true };

export type PageHandle = HydrationHandle & {
  section: SectionId;
  /** The host of the players the page lists: its head asks early whether it can be reached (lib/player-probe.ts). */
  players?: PlayerHost;
  /** The name of the item the page shows ("Deep Work" under Notes), from the page's loader data. */
  item?: (loaderData: never) => string;
};

/** A handle for a section page, or for an item page with its name read from the loader data. */
export function pageHandle<Data>(
  section: SectionId,
  { item, hydrate, players }: { item?: (loaderData: Data) => string; hydrate?: true; players?: PlayerHost } = {},
): PageHandle {
  return {
    section,
    ...(item ? { item: item as (loaderData: never) => string } : {}),
    ...(hydrate ? { hydrate } : {}),
    ...(players ? { players } : {}),
  };
}

type Match = { handle?: unknown; loaderData?: unknown; pathname?: string } | undefined;

const isPageHandle = (handle: unknown): handle is PageHandle =>
  typeof handle === "object" && handle !== null && "section" in handle;

/** The page's path without a trailing slash ("/notes/" → "/notes"); the home page is "/". */
export function canonicalPath(pathname: string): string {
  return pathname.replace(/\/+$/, "") || "/";
}

/** True when a route of the page asked for React in the browser. */
export function wantsHydration(matches: ReadonlyArray<Match>): boolean {
  return matches.some((match) => (match?.handle as HydrationHandle | undefined)?.hydrate === true);
}

/** The handle of the deepest route that has one: the page's own. */
export function pageHandleOf(matches: ReadonlyArray<Match>): PageHandle | undefined {
  const handle = matches.findLast((match) => isPageHandle(match?.handle))?.handle;
  return isPageHandle(handle) ? handle : undefined;
}

/**
 * Home / (the section's parent) / the section / the item: every crumb but the last is a link.
 * A page with no handle (the home page, the not-found screen) is Home alone.
 */
export function breadcrumbOf(matches: ReadonlyArray<Match>): Crumb[] {
  const home = { name: sectionOf("home").label, path: "/" };
  const page = matches.findLast((match) => isPageHandle(match?.handle));
  if (!page || !isPageHandle(page.handle)) return [home];
  const section = sectionOf(page.handle.section);
  const parent = "parent" in section ? sectionOf(section.parent) : undefined;
  return [
    home,
    ...(parent ? [{ name: parent.label, path: parent.path }] : []),
    { name: section.label, path: section.path },
    ...(page.handle.item
      ? [{ name: page.handle.item(page.loaderData as never), path: canonicalPath(page.pathname ?? section.path) }]
      : []),
  ];
}
