/**
 * The time from a keystroke in the notes search box to the updated list on screen: the key's
 * event time to the first animation frame after the list shows the text typed so far (the frame
 * that paints it). A keystroke the box loses makes the measurement fail with a message saying so.
 */
import type { Browser } from "playwright-core";
import { present } from "../catalogue/present.ts";

export type KeystrokeFigures = { notes: number; keystrokes: number; medianMs: number; p95Ms: number; maxMs: number };

const QUERY = "the habit";

/** The time limits of the page load and hydration, and of each keystroke's wait for the list. */
export type KeystrokeOptions = { loadTimeoutMs?: number; keyTimeoutMs?: number };

export async function measureKeystrokes(
  browser: Browser,
  baseUrl: string,
  { loadTimeoutMs = 30_000, keyTimeoutMs = 10_000 }: KeystrokeOptions = {},
): Promise<KeystrokeFigures> {
  const page = await browser.newPage({ viewport: { width: 412, height: 915 } });
  page.setDefaultTimeout(loadTimeoutMs);
  await page.goto(`${baseUrl}/notes`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const notes = await page.locator(".note-entry").count();
  const box = page.getByPlaceholder("Search...");
  await box.click();
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    let typed = "";
    for (const key of [...QUERY, ...Array(QUERY.length).fill("Backspace")]) {
      typed = key === "Backspace" ? typed.slice(0, -1) : typed + key;
      await page.evaluate(
        ({ typed, timeoutMs }) => {
          const list = document.querySelector("[data-query]") as HTMLElement;
          const box = document.querySelector('.search-bar input[name="q"]') as HTMLInputElement;
          const state = window as unknown as { __keystroke?: Promise<number> };
          state.__keystroke = new Promise<number>((resolve, reject) => {
            let pressedAt = 0;
            window.addEventListener("keydown", (event) => (pressedAt = event.timeStamp), { once: true });
            const observer = new MutationObserver(() => {
              if (list.dataset.query !== typed) return;
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - pressedAt));
            });
            observer.observe(list, { attributes: true, attributeFilter: ["data-query"] });
            setTimeout(() => {
              observer.disconnect();
              const lost =
                box.value === typed ? "" : ` (typed "${typed}", the box shows "${box.value}": a keystroke was lost)`;
              reject(new Error(`the list did not show "${typed}" within ${timeoutMs} ms of the keystroke${lost}`));
            }, timeoutMs);
          });
        },
        { typed, timeoutMs: keyTimeoutMs },
      );
      await page.keyboard.press(key === " " ? "Space" : key);
      samples.push(await page.evaluate(() => (window as unknown as { __keystroke: Promise<number> }).__keystroke));
      // The next key once the page has settled: the URL follows the box (?q=…) a little later, and a
      // key pressed before that measures a race rather than one keystroke (bench/typing-check.ts
      // looks for that race).
      await page.waitForFunction((typed) => (new URLSearchParams(location.search).get("q") ?? "") === typed, typed, {
        timeout: keyTimeoutMs,
      });
      await page.waitForTimeout(30);
    }
  }
  await page.close();
  samples.sort((a, b) => a - b);
  const at = (fraction: number) =>
    present(
      samples[Math.min(samples.length - 1, Math.floor(fraction * samples.length))],
      "at least one keystroke timed",
    );
  const round = (value: number) => Math.round(value * 10) / 10;
  return { notes, keystrokes: samples.length, medianMs: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(at(1)) };
}
