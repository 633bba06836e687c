/** Where Debian's Chromium is, and the flags it needs here (no downloads, no background network). */
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"];

export function findChromium(): string | undefined {
  const fromEnvironment = process.env.CHROMIUM_PATH;
  if (fromEnvironment) return existsSync(fromEnvironment) ? fromEnvironment : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
