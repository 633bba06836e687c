/**
 * The time from a keystroke in the notes search box to the updated list on screen: the key's
 * event time to the first animation frame after the list changed (the frame that paints it).
 */
import type { Browser } from "playwright-core";

export type KeystrokeFigures = { notes: number; keystrokes: number; medianMs: number; p95Ms: number; maxMs: number };

const QUERY = "the habit";

/** `timeoutMs` bounds the page load, the hydration and each keystroke's wait for the list. */
export async function measureKeystrokes(
  browser: Browser,
  baseUrl: string,
  timeoutMs = 30_000,
): Promise<KeystrokeFigures> {
  const page = await browser.newPage({ viewport: { width: 412, height: 915 } });
  page.setDefaultTimeout(timeoutMs);
  await page.goto(`${baseUrl}/notes`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const notes = await page.locator(".note-entry").count();
  const box = page.getByPlaceholder("Search...");
  await box.click();
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const key of [...QUERY, ...Array(QUERY.length).fill("Backspace")]) {
      await page.evaluate((timeoutMs) => {
        const list = document.querySelector("[data-query]") as HTMLElement;
        const box = document.querySelector('input[name="q"]') as HTMLInputElement;
        const state = window as unknown as { __keystroke?: Promise<number> };
        state.__keystroke = new Promise<number>((resolve, reject) => {
          let pressedAt = 0;
          window.addEventListener("keydown", (event) => (pressedAt = event.timeStamp), { once: true });
          const observer = new MutationObserver(() => {
            if (list.dataset.query !== box.value) return;
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - pressedAt));
          });
          observer.observe(list, { attributes: true, attributeFilter: ["data-query"] });
          setTimeout(() => {
            observer.disconnect();
            reject(new Error(`the list did not show "${box.value}" within ${timeoutMs} ms of the keystroke`));
          }, timeoutMs);
        });
      }, timeoutMs);
      await page.keyboard.press(key === " " ? "Space" : key);
      samples.push(await page.evaluate(() => (window as unknown as { __keystroke: Promise<number> }).__keystroke));
      await page.waitForTimeout(30);
    }
  }
  await page.close();
  samples.sort((a, b) => a - b);
  const at = (fraction: number) => samples[Math.min(samples.length - 1, Math.floor(fraction * samples.length))];
  const round = (value: number) => Math.round(value * 10) / 10;
  return { notes, keystrokes: samples.length, medianMs: round(at(0.5)), p95Ms: round(at(0.95)), maxMs: round(at(1)) };
}
