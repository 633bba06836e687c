import { type SectionId, type SectionLink, sectionOf } from "../../catalogue/sections.ts";
import type { Crumb } from "../../outputs/structured-data.ts";
import type { PlayerHost } from "./player-probe.ts";

// Pages hydrate only when an interaction needs React; every other page ships no module script at all.
export type HydrationHandle = { hydrate?: true };

// Read by the host (host/routes.ts): a page with `query` is rendered and cached per query in its one spelling
// when that is not ""; a `perRequest` page is never prerendered and renders at once, like a post.
export type RenderHandle = { query?: (params: URLSearchParams) => string; perRequest?: true };

type PageOptions<Data> = RenderHandle & HydrationHandle & { item?: (loaderData: Data) => string; players?: PlayerHost };

export type PageHandle = PageOptions<never> & { section: SectionId };

export function pageHandle<Data>(section: SectionId, options: PageOptions<Data> = {}): PageHandle {
  return { section, ...(options as PageOptions<never>) };
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

const pageMatch = (matches: ReadonlyArray<Match>) => matches.findLast((match) => isPageHandle(match?.handle));

export function pageHandleOf(matches: ReadonlyArray<Match>): PageHandle | undefined {
  return pageMatch(matches)?.handle as PageHandle | undefined;
}

// A section is called what the owner's menu calls it, if the menu has it.
export function breadcrumbOf(matches: ReadonlyArray<Match>): Crumb[] {
  const menu = (matches[0]?.loaderData as { site?: { menu: SectionLink[] } } | undefined)?.site?.menu ?? [];
  const crumb = (id: SectionId) => {
    const { label, path } = sectionOf(id);
    return { name: menu.find((link) => link.path === path)?.label ?? label, path };
  };
  const home = crumb("home");
  const page = pageMatch(matches);
  const handle = page?.handle as PageHandle | undefined;
  if (!handle) return [home];
  const section = sectionOf(handle.section);
  return [
    home,
    ...("parent" in section ? [crumb(section.parent)] : []),
    crumb(section.id),
    ...(handle.item
      ? [{ name: handle.item(page?.loaderData as never), path: canonicalPath(page?.pathname ?? section.path) }]
      : []),
  ];
}
