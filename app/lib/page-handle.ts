import { type SectionId, sectionOf } from "../../catalogue/sections.ts";
import type { Crumb } from "../../outputs/structured-data.ts";
import type { PlayerHost } from "./player-probe.ts";

// Pages hydrate only when an interaction needs React; every other page ships no module script at all.
export type HydrationHandle = { hydrate?: true };

/**
 * How the host serves a page, read from its route (host/routes.ts): a page with `query` is
 * its prerendered file unless the query, in one spelling, is not "" — then it is rendered and
 * cached per query; a `perRequest` page is never prerendered and is rendered at once, like a post.
 */
export type RenderHandle = { query?: (params: URLSearchParams) => string; perRequest?: true };

export type PageHandle = HydrationHandle &
  RenderHandle & {
    section: SectionId;
    players?: PlayerHost;
    item?: (loaderData: never) => string;
  };

type PageOptions<Data> = RenderHandle & { item?: (loaderData: Data) => string; hydrate?: true; players?: PlayerHost };

export function pageHandle<Data>(
  section: SectionId,
  { item, hydrate, players, query, perRequest }: PageOptions<Data> = {},
): PageHandle {
  return {
    section,
    ...(item ? { item: item as (loaderData: never) => string } : {}),
    ...(hydrate ? { hydrate } : {}),
    ...(players ? { players } : {}),
    ...(query ? { query } : {}),
    ...(perRequest ? { perRequest } : {}),
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
