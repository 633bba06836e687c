/** The page-head helper of SPEC §2: title "<owner> | <page>" and a meta description on every page. */
export const DEFAULT_TITLE = "Personal Website";

export type PageHead = { title?: string; description: string };

export function documentTitle(owner: string, title: string | undefined): string {
  return `${owner} | ${title ?? DEFAULT_TITLE}`;
}

/** `matches[0]` is the root route, whose loader carries the owner's name. */
export function pageMeta(
  matches: ReadonlyArray<{ loaderData?: unknown } | undefined>,
  head: PageHead,
): Array<Record<string, string>> {
  const owner = (matches[0]?.loaderData as { site?: { name: string } } | undefined)?.site?.name ?? "";
  return [{ title: documentTitle(owner, head.title) }, { name: "description", content: head.description }];
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** A plain-text description from the first words of rendered HTML, for pages with no summary. */
export function summarize(html: string, words = 30): string {
  const text = html.replace(/<[^>]+>/g, " ").replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
  const all = text.split(/\s+/).filter(Boolean);
  return all.length <= words ? all.join(" ") : `${all.slice(0, words).join(" ")}…`;
}
