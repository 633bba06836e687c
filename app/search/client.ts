// Loaded by the page shell on the first use of search, so pages without React get search too.
import { formatMonthYear } from "../../catalogue/dates.ts";
import { cutQuery, searchPath } from "../../catalogue/search-text.ts";
import {
  loadSearchIndex,
  RESULTS_PER_PAGE,
  resultPages,
  resultsStatus,
  SEARCH_KINDS,
  type SearchHit,
  type SearchPage,
  type SiteSearchIndex,
  searchSite,
} from "../../catalogue/site-search.ts";

const DIALOG_RESULTS = 8;

let index: Promise<SiteSearchIndex> | undefined;

function searchIndex(url: string): Promise<SiteSearchIndex> {
  index ??= fetch(url)
    .then((response) => {
      if (!response.ok) throw new Error(`The search index answered ${response.status}`);
      return response.text();
    })
    .then(loadSearchIndex)
    .catch((error: unknown) => {
      index = undefined; // The next keystroke tries again.
      throw error;
    });
  return index;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

// Must match the markup of app/components/SearchResults.tsx.
function resultList(hits: readonly SearchHit[], list: HTMLOListElement): HTMLOListElement {
  list.replaceChildren(
    ...hits.map((hit) => {
      const link = element(
        "a",
        { href: hit.path },
        element("span", { className: "search-kind" }, SEARCH_KINDS[hit.kind]),
        element("span", { className: "search-title" }, hit.title),
        element("time", { dateTime: hit.date }, formatMonthYear(hit.date)),
      );
      if (hit.snippet.length > 0) {
        const parts = hit.snippet.map((part) => (part.mark ? element("mark", {}, part.text) : part.text));
        link.append(element("span", { className: "search-snippet" }, ...parts));
      }
      return element("li", {}, link);
    }),
  );
  return list;
}

function resultPagesNav(query: string, result: SearchPage): HTMLElement[] {
  const links = resultPages(query, result).map(({ rel, label, href, text }) =>
    element(
      "a",
      { href, rel, className: `pager-${label.toLowerCase()}` },
      element("span", { className: "pager-label" }, label),
      ` ${text}`,
    ),
  );
  return links.length > 0 ? [element("nav", { className: "pager", ariaLabel: "Result pages" }, ...links)] : [];
}

type ShowResults = (query: string, result: SearchPage | null) => void;

function showResults(indexUrl: string, field: HTMLInputElement, perPage: number, show: ShowResults): void {
  const query = cutQuery(field.value);
  searchIndex(indexUrl).then(
    (loaded) => {
      // A later keystroke wins over an earlier one whose index was still loading.
      if (cutQuery(field.value) === query) show(query, query ? searchSite(loaded, query, { perPage }) : null);
    },
    () => {
      // No index (offline): the form still submits to /search.
    },
  );
}

let dialog: { element: HTMLDialogElement; field: HTMLInputElement } | undefined;

function searchDialog(indexUrl: string) {
  if (dialog) return dialog;
  const box = element("dialog", { className: "search-dialog", ariaLabel: "Search the site", closedBy: "any" });
  const field = element("input", { type: "search", name: "q", autocomplete: "off", enterKeyHint: "search" });
  field.setAttribute("aria-describedby", "search-dialog-status");
  const close = element("button", { type: "button", className: "close-button" }, "Close");
  close.addEventListener("click", () => box.close());
  const label = element(
    "label",
    { className: "search-field" },
    element("span", { className: "visually-hidden" }, "Search the site"),
    field,
  );
  const form = element(
    "form",
    { className: "search-bar", action: "/search", method: "get", role: "search" },
    label,
    close,
  );
  const status = element("p", { className: "results", id: "search-dialog-status", role: "status" });
  const list = element("ol", { className: "search-results" });
  const all = element("a", { className: "search-all", hidden: true }, "All results");
  const results = element("div", {}, status, list, all);
  box.append(form, results);

  field.addEventListener("input", () =>
    showResults(indexUrl, field, DIALOG_RESULTS, (query, result) => {
      status.textContent = result ? resultsStatus(query, result) : "";
      resultList(result?.hits ?? [], list);
      all.hidden = !result || result.total <= DIALOG_RESULTS;
      all.textContent = `All ${result?.total ?? ""} results`;
      all.href = searchPath(query);
      results.dataset.query = query;
    }),
  );
  box.addEventListener("keydown", (event) => {
    // In a search field the browser's own Escape only empties it: here it closes the dialog.
    if (event.key === "Escape") {
      event.preventDefault();
      box.close();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const links = [...box.querySelectorAll<HTMLAnchorElement>(".search-results a, .search-all:not([hidden])")];
    if (links.length === 0) return;
    event.preventDefault();
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = event.key === "ArrowDown" ? Math.min(at + 1, links.length - 1) : at - 1;
    (next < 0 ? field : links[next])?.focus();
  });
  // A chosen result is a new page: the dialog is not left open behind it (Back, the bfcache).
  box.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("a")) box.close();
  });
  document.body.append(box);
  dialog = { element: box, field };
  return dialog;
}

function openDialog(indexUrl: string, text: string | undefined): void {
  const { element: box, field } = searchDialog(indexUrl);
  if (!box.open) box.showModal();
  if (text !== undefined && text !== field.value) {
    field.value = text;
    field.dispatchEvent(new Event("input"));
  }
  field.focus();
  if (text === undefined) field.select();
  // Fetching the index now, not at the first keystroke, saves its download from the typing.
  searchIndex(indexUrl).catch(() => {});
}

function searchPage(indexUrl: string, field: HTMLInputElement): void {
  const results = document.querySelector<HTMLElement>("[data-search-results='page']");
  if (!results) return;
  showResults(indexUrl, field, RESULTS_PER_PAGE, (query, result) => {
    // The server's status line stays (a live region must be there before it changes to be read).
    const status = results.querySelector(".results");
    if (status) status.textContent = result ? resultsStatus(query, result) : "";
    const hint = results.querySelector<HTMLElement>(".search-hint");
    if (hint) hint.hidden = query !== "";
    const list =
      results.querySelector<HTMLOListElement>(".search-results") ?? element("ol", { className: "search-results" });
    results.querySelector(".pager")?.remove();
    if (result && result.hits.length > 0)
      results.append(resultList(result.hits, list), ...resultPagesNav(query, result));
    else list.remove();
    results.dataset.query = query;
    history.replaceState(history.state, "", searchPath(query));
  });
}

export function searchFrom(indexUrl: string, field: HTMLInputElement | null): void {
  if (field?.dataset.searchField === "page") searchPage(indexUrl, field);
  else openDialog(indexUrl, field?.value);
}
