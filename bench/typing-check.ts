/**
 * Fast typing in the notes search: the whole query typed without pauses must end with the box and
 * the list showing it. A box that drops a key (an older URL update arriving after a newer key
 * resets the box) fails this check.
 */
import type { Browser, Page } from "playwright-core";

export type TypingTry = { typed: string; box: string; list: string; keptEveryKey: boolean };
/** `lost`: tries that lost a key; `example`: what the box showed in the first of them. */
export type TypingCheck = { typed: string; tries: number; lost: number; example: string };

const QUERY = "the habit";

/** The race depends on timing: several tries, each on a fresh page. */
export async function checkFastTyping(browser: Browser, baseUrl: string, tries = 3): Promise<TypingCheck> {
  let lost = 0;
  let example = "";
  for (let attempt = 0; attempt < tries; attempt++) {
    const result = await typeOnce(browser, baseUrl);
    if (!result.keptEveryKey) {
      lost++;
      example ||= result.box;
    }
  }
  return { typed: QUERY, tries, lost, example };
}

async function typeOnce(browser: Browser, baseUrl: string, timeoutMs = 30_000): Promise<TypingTry> {
  const page = await browser.newPage({ viewport: { width: 412, height: 915 } });
  try {
    page.setDefaultTimeout(timeoutMs);
    await page.goto(`${baseUrl}/notes`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await page.getByPlaceholder("Search...").click();
    await page.keyboard.type(QUERY);
    const state = await settledSearch(page, timeoutMs);
    return {
      typed: QUERY,
      box: state.box,
      list: state.list,
      keptEveryKey: state.box === QUERY && state.list === QUERY,
    };
  } finally {
    await page.close();
  }
}

export type SearchState = { box: string; list: string; url: string };

/**
 * Waits until the notes page has settled after typing, whatever it shows: the search box, the
 * search the list shows (its data-query) and the URL's ?q= agree and stay so for half a second.
 * Gives up after `timeoutMs` and returns the last state seen.
 */
export async function settledSearch(page: Page, timeoutMs: number): Promise<SearchState> {
  const read = () =>
    page.evaluate(() => ({
      box: (document.querySelector('.search-bar input[name="q"]') as HTMLInputElement).value,
      list: (document.querySelector("[data-query]") as HTMLElement).dataset.query ?? "",
      url: new URLSearchParams(location.search).get("q") ?? "",
    }));
  const deadline = Date.now() + timeoutMs;
  let state = await read();
  for (;;) {
    await page.waitForTimeout(500);
    const next = await read();
    const settled =
      next.box === state.box && next.list === state.list && next.url === state.url && next.list === next.box;
    state = next;
    if (settled || Date.now() > deadline) return state;
  }
}
