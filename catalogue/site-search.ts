// Build, server and browser rank alike because all three use this module's options.
import MiniSearch, { type Options, type SearchResult as RankedDocument } from "minisearch";
import type { Catalogue } from "./load.ts";
import { cutQuery, normaliseWord, searchPath, snippetOf, wordsOf } from "./search-text.ts";

export const SEARCH_KINDS = {
  note: "Book note",
  essay: "Essay",
  issue: "Newsletter",
  app: "App",
  job: "Work",
} as const;
export type SearchKind = keyof typeof SEARCH_KINDS;

function document(
  kind: SearchKind,
  { title, byline, keywords, texts }: { title: string; byline: string; keywords: readonly string[]; texts: string[] },
  { date, path }: { date: string; path: string },
) {
  return { kind, title, byline, keywords: keywords.join(" "), text: texts.filter(Boolean).join("\n"), date, path };
}

export function searchDocuments(catalogue: Pick<Catalogue, "notes" | "writings" | "updates" | "apps" | "work">) {
  const documents = [
    ...catalogue.notes.map((note) =>
      document(
        "note",
        {
          title: note.name,
          byline: note.author,
          keywords: [...note.tags, note.series?.name ?? ""],
          texts: [note.text],
        },
        note,
      ),
    ),
    ...catalogue.writings.map((essay) => {
      const keywords = essay.tags.filter((tag) => tag !== "Write");
      return document("essay", { title: essay.name, byline: "", keywords, texts: [essay.text] }, essay);
    }),
    ...catalogue.updates.map((issue) =>
      document("issue", { title: issue.title, byline: "", keywords: [], texts: [issue.text] }, issue),
    ),
    ...catalogue.apps.map((app) =>
      document(
        "app",
        { title: app.name, byline: app.tagLine, keywords: [...app.tags, ...app.tech], texts: [app.text, app.future] },
        { date: app.startDate, path: app.path },
      ),
    ),
    ...catalogue.work.map((job) =>
      document(
        "job",
        {
          title: job.name,
          byline: job.position,
          keywords: [...job.tags, ...job.tech],
          texts: [job.text, ...job.accomplishments],
        },
        { date: job.startDate, path: job.path },
      ),
    ),
  ];
  return documents.map((document, id) => ({ id, ...document }));
}

export type SearchDocument = ReturnType<typeof searchDocuments>[number];
export type SearchHit = ReturnType<typeof toHit>;

// Words too common to tell pages apart: a smaller index, and a phrase's rare words decide.
const STOP_WORDS = new Set(
  "a an and are as at be but by for from has have i in into is it its of on or that the this to was were what when which who will with you your"
    .split(" ")
    .map(normaliseWord),
);

const processTerm = (term: string) => {
  const word = normaliseWord(term);
  return STOP_WORDS.has(word) ? null : word;
};

const INDEX_OPTIONS: Options<SearchDocument> = {
  fields: ["title", "byline", "keywords", "text"],
  storeFields: ["kind", "title", "date", "path", "text"],
  tokenize: wordsOf,
  processTerm,
};

const SEARCH_OPTIONS = {
  boost: { title: 5, byline: 3, keywords: 2, text: 1 },
  weights: { fuzzy: 0.6, prefix: 0.8 },
} as const;

export const MAX_QUERY_TERMS = 10;
export const TYPO_TERMS = 3;
export const RESULTS_PER_PAGE = 50;

export type QueryTerm = { term: string; prefix: boolean; typos: number };

// A short word is one typo away from too many others: "fast" from "last" and "past".
const typosAllowed = (word: string) => (word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0);

// Each stretched word costs a walk of the index, so only the first TYPO_TERMS words and the last may have typos.
export function queryTerms(query: string): QueryTerm[] {
  const words = wordsOf(cutQuery(query)).flatMap((word) => processTerm(word) ?? []);
  const terms = [...new Set(words)].slice(0, MAX_QUERY_TERMS);
  return terms.map((term, at) => {
    const last = at === terms.length - 1;
    return { term, prefix: last, typos: at < TYPO_TERMS || last ? typosAllowed(term) : 0 };
  });
}

export type SiteSearchIndex = MiniSearch<SearchDocument>;

export function buildSearchIndex(documents: readonly SearchDocument[]): SiteSearchIndex {
  const index = new MiniSearch<SearchDocument>(INDEX_OPTIONS);
  index.addAll(documents);
  return index;
}

export const serialiseSearchIndex = (index: SiteSearchIndex) => JSON.stringify(index);

export const SEARCH_INDEX_PATH = "/search-index.json";

/** The browser's search module, its own entry of the browser build, which the page shell loads on first use. */
export const SEARCH_CLIENT_MODULE = "app/search/client.ts";

export const searchIndexFile = (catalogue: Parameters<typeof searchDocuments>[0]) =>
  serialiseSearchIndex(buildSearchIndex(searchDocuments(catalogue)));

export const loadSearchIndex = (json: string): SiteSearchIndex => MiniSearch.loadJSON(json, INDEX_OPTIONS);

type StoredFields = Pick<SearchDocument, "kind" | "title" | "date" | "path" | "text">;

type Ranked = RankedDocument & StoredFields;

const isExactly = (word: string, { term, prefix }: QueryTerm) => word === term || (prefix && word.startsWith(term));

// Titles are few and fixed: each is split once, not at every search that finds it.
const titleWords = new Map<string, string[]>();

/** How closely a title reads as the query typed, stop words included: 3 the same words, 2 it begins so, 1 it has them in a row. */
function titleMatch(title: string, phrase: readonly string[]): number {
  const words = titleWords.get(title) ?? titleWords.set(title, wordsOf(title).map(normaliseWord)).get(title) ?? [];
  const readsAt = (at: number) =>
    phrase.every((word, i) => (i === phrase.length - 1 ? words[at + i]?.startsWith(word) : words[at + i] === word));
  if (words.length === phrase.length && phrase.every((word, i) => words[i] === word)) return 3;
  if (readsAt(0)) return 2;
  return words.some((_, at) => readsAt(at)) ? 1 : 0;
}

/**
 * Every result in order: documents with all the query's words, if any, else those with some, the most first;
 * then titles that read as the query, then documents found without a typo, then the score, the newer first.
 * A query of stop words only finds the titles that read as it.
 */
function rankedDocuments(index: SiteSearchIndex, query: string) {
  const phrase = wordsOf(cutQuery(query)).slice(0, MAX_QUERY_TERMS).map(normaliseWord);
  if (phrase.length === 0) return [];
  const terms = queryTerms(query);
  const queries = terms.map(({ term, prefix, typos }) => ({ queries: [term], prefix, fuzzy: typos }));
  // One pass: a document that has every word scores the same as it would in an AND search.
  const found = (
    terms.length > 0 ? index.search({ combineWith: "OR", queries }, SEARCH_OPTIONS) : index.search(MiniSearch.wildcard)
  ) as Ranked[];
  const complete = found.filter((document) => document.queryTerms.length === terms.length);
  return (complete.length > 0 ? complete : found)
    .map((document) => {
      const exact = document.terms.filter((word) => terms.some((term) => isExactly(word, term)));
      const typos =
        document.queryTerms.length - terms.filter((term) => exact.some((word) => isExactly(word, term))).length;
      const inTitle = terms.length === 0 || Object.values(document.match).some((fields) => fields.includes("title"));
      const title = inTitle ? titleMatch(document.title, phrase) : 0;
      return { document, typos, title, marked: typos === 0 ? exact : document.terms };
    })
    .filter(({ title }) => terms.length > 0 || title > 0)
    .sort(
      (a, b) =>
        b.document.queryTerms.length - a.document.queryTerms.length ||
        b.title - a.title ||
        a.typos - b.typos ||
        b.document.score - a.document.score ||
        b.document.date.localeCompare(a.document.date),
    );
}

export type SearchPage = { total: number; page: number; pages: number; perPage: number; hits: SearchHit[] };

/** One page of a query's results: the page asked for, or the last when it asks beyond. */
export function searchSite(
  index: SiteSearchIndex,
  query: string,
  { page = 1, perPage = RESULTS_PER_PAGE } = {},
): SearchPage {
  const ranked = rankedDocuments(index, query);
  const pages = Math.max(1, Math.ceil(ranked.length / perPage));
  const shown = Math.min(page, pages);
  const from = (shown - 1) * perPage;
  const hits = ranked.slice(from, from + perPage).map(({ document, marked }) => toHit(document, marked));
  return { total: ranked.length, page: shown, pages, perPage, hits };
}

export function resultsStatus(query: string, { total, page, perPage, hits }: SearchPage): string {
  if (!query) return "";
  if (total === 0) return `Nothing found for “${query}”.`;
  if (hits.length === total) return total === 1 ? "1 result" : `${total} results`;
  const first = (page - 1) * perPage + 1;
  return `Results ${first}–${first + hits.length - 1} of ${total}`;
}

export function resultPages(query: string, { page, pages, perPage, total }: SearchPage) {
  const link = (to: number, rel: string, label: string) => ({
    rel,
    label,
    href: searchPath(query, to),
    text: `${(to - 1) * perPage + 1}–${Math.min(to * perPage, total)}`,
  });
  return [
    ...(page > 1 ? [link(page - 1, "prev", "Previous")] : []),
    ...(page < pages ? [link(page + 1, "next", "Next")] : []),
  ];
}

function toHit({ kind, title, date, path, text }: Ranked, marked: readonly string[]) {
  return { kind, title, date, path, snippet: snippetOf(text, new Set(marked)) };
}
