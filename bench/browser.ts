/**
 * Debian's Chromium under playwright-core. Playwright itself kills the browsers it launched when
 * this process exits, however it exits.
 */
import { type Browser, chromium } from "playwright-core";
import { CHROME_FLAGS, CHROME_PATH } from "./lighthouse.ts";

export async function withBrowser<T>(work: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({
    executablePath: CHROME_PATH,
    // playwright adds its own headless flag.
    args: CHROME_FLAGS.filter((flag) => !flag.startsWith("--headless")),
    timeout: 60_000,
  });
  try {
    return await work(browser);
  } finally {
    await browser.close().catch(() => {});
  }
}
