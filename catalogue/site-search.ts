// Build, server and browser rank alike because all three use this module's options.
import MiniSearch, { type Options, type SearchResult as RankedDocument } from "minisearch";
import type { Catalogue } from "./load.ts";
import { cutQuery, normaliseWord, snippetOf, wordsOf } from "./search-text.ts";

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
      document("note", { title: note.name, byline: note.author, keywords: note.tags, texts: [note.text] }, note),
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

export type QueryTerm = { term: string; prefix: boolean; typos: number };

// Each stretched word costs a walk of the index, so only the first TYPO_TERMS words and the last may have typos.
export function queryTerms(query: string): QueryTerm[] {
  const words = wordsOf(cutQuery(query)).flatMap((word) => processTerm(word) ?? []);
  const terms = [...new Set(words)].slice(0, MAX_QUERY_TERMS);
  return terms.map((term, at) => {
    const last = at === terms.length - 1;
    const typos = at < TYPO_TERMS || last ? (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0) : 0;
    return { term, prefix: last, typos };
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

export function searchSite(index: SiteSearchIndex, query: string, limit = 20) {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const queries = terms.map(({ term, prefix, typos }) => ({ queries: [term], prefix, fuzzy: typos }));
  // One pass: a document that has every word scores the same as it would in an AND search.
  const ranked = index.search({ combineWith: "OR", queries }, SEARCH_OPTIONS);
  const complete = ranked.filter((document) => document.queryTerms.length === terms.length);
  return (complete.length > 0 ? complete : ranked)
    .sort((a, b) => b.score - a.score || dateOf(b).localeCompare(dateOf(a)))
    .slice(0, limit)
    .map(toHit);
}

const dateOf = (document: RankedDocument) => (document as RankedDocument & StoredFields).date;

function toHit(document: RankedDocument) {
  const { kind, title, date, path, text } = document as RankedDocument & StoredFields;
  return { kind, title, date, path, snippet: snippetOf(text, new Set(document.terms)) };
}
