export const MAX_QUERY_LENGTH = 200;

export const SNIPPET_WORDS = 28;

export function cutQuery(query: string): string {
  // Array.from counts code points, so an emoji is never cut in half.
  return Array.from(query.replace(/\s+/g, " ").trim()).slice(0, MAX_QUERY_LENGTH).join("").trim();
}

export function searchPath(query: string, page = 1): string {
  const params = new URLSearchParams(query ? { q: query } : {});
  if (query && page > 1) params.set("page", String(page));
  return `/search${params.size > 0 ? `?${params}` : ""}`;
}

/** The query and page a search's address asks for: the last `q` cut as the page cuts it, the last `page` if a whole number above 1. */
export function searchRequest(params: URLSearchParams): { query: string; page: number } {
  const page = Number(params.getAll("page").at(-1));
  return { query: cutQuery(params.getAll("q").at(-1) ?? ""), page: Number.isSafeInteger(page) && page > 1 ? page : 1 };
}

/** The site search's parameters in one spelling; "" without a query. */
export function canonicalSearchQuery(params: URLSearchParams): string {
  const { query, page } = searchRequest(params);
  return searchPath(query, page).slice("/search".length);
}

export function normaliseWord(word: string): string {
  return word
    .normalize("NFD")
    .replace(/[\p{M}'’]/gu, "")
    .toLowerCase();
}

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;

export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

export type SnippetPart = { text: string; mark: boolean };

export function snippetOf(text: string, terms: ReadonlySet<string>, words = SNIPPET_WORDS): SnippetPart[] {
  const found = [...text.matchAll(WORD)];
  if (found.length === 0) return [];
  const first = found.findIndex((match) => terms.has(normaliseWord(match[0])));
  // A few words before the match, so the passage reads as one.
  const lead = Math.min(6, Math.floor(words / 3));
  const start = first <= 0 ? 0 : Math.max(0, Math.min(first - lead, found.length - words));
  const end = Math.min(found.length, start + words);
  const from = start === 0 ? 0 : (found[start]?.index ?? 0);
  const last = found[end - 1];
  const to = end === found.length ? text.length : (last?.index ?? 0) + (last?.[0].length ?? 0);
  const parts: SnippetPart[] = [];
  const push = (piece: string, mark: boolean) => {
    if (!piece) return;
    const previous = parts.at(-1);
    if (previous && previous.mark === mark && !mark) previous.text += piece;
    else parts.push({ text: piece, mark });
  };
  if (from > 0) push("…", false);
  let at = from;
  for (const match of found.slice(start, end)) {
    const index = match.index ?? 0;
    if (!terms.has(normaliseWord(match[0]))) continue;
    push(text.slice(at, index).replace(/\s+/g, " "), false);
    push(match[0], true);
    at = index + match[0].length;
  }
  push(text.slice(at, to).replace(/\s+/g, " "), false);
  if (to < text.length) push("…", false);
  return parts;
}
