import { type SectionId, sectionOf } from "../../catalogue/sections.ts";
import type { Crumb } from "../../catalogue/structured-data.ts";
import type { PlayerHost } from "./player-probe.ts";

// Pages hydrate only when an interaction needs React; every other page ships no module script at all.
export type HydrationHandle = { hydrate?: true };

export type PageHandle = HydrationHandle & {
  section: SectionId;
  players?: PlayerHost;
  item?: (loaderData: never) => string;
};

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

export function canonicalPath(pathname: string): string {
  return pathname.replace(/\/+$/, "") || "/";
}

export function wantsHydration(matches: ReadonlyArray<Match>): boolean {
  return matches.some((match) => (match?.handle as HydrationHandle | undefined)?.hydrate === true);
}

export function pageHandleOf(matches: ReadonlyArray<Match>): PageHandle | undefined {
  const handle = matches.findLast((match) => isPageHandle(match?.handle))?.handle;
  return isPageHandle(handle) ? handle : undefined;
}

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
