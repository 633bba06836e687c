/**
 * Light or dark (issue 7). With no choice the page follows the system setting; the header's toggle
 * stores an explicit choice in local storage under its own key ("light" | "dark"; absent = follow
 * the system). The <html> element's data-theme always holds the theme in use: the inline head
 * script sets it before the first paint, so the page never flashes the wrong theme, and the CSS
 * palette (site.css) hangs off it. Without JavaScript there is no data-theme and the CSS follows
 * prefers-color-scheme on its own.
 */
import { useSyncExternalStore } from "react";

export const THEME_STORAGE_KEY = "avery-quinn-site:theme";
export type Theme = "light" | "dark";

const DARK_QUERY = "(prefers-color-scheme: dark)";

const isTheme = (value: unknown): value is Theme => value === "light" || value === "dark";

/**
 * Runs in the page head before the first paint (inlined by root.tsx): the stored choice, else the
 * system setting. Storage may be blocked (private mode): then the system setting applies.
 */
export const THEME_SCRIPT = `(function(){var t=null;try{t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})}catch(e){}if(t!=="light"&&t!=="dark")t=matchMedia(${JSON.stringify(DARK_QUERY)}).matches?"dark":"light";document.documentElement.dataset.theme=t})()`;

function storedTheme(): Theme | null {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : null;
  } catch {
    return null;
  }
}

const systemTheme = (): Theme => (matchMedia(DARK_QUERY).matches ? "dark" : "light");

const listeners = new Set<() => void>();

function apply(theme: Theme) {
  if (document.documentElement.dataset.theme === theme) return;
  document.documentElement.dataset.theme = theme;
  for (const listener of listeners) listener();
}

/** The theme in use: what the head script (or a later change) put on <html>. */
function snapshot(): Theme {
  const current = document.documentElement.dataset.theme;
  return isTheme(current) ? current : systemTheme();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Follow the system while there is no explicit choice, and a choice made in another tab.
  const media = matchMedia(DARK_QUERY);
  const onSystemChange = () => apply(storedTheme() ?? systemTheme());
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY || event.key === null) apply(storedTheme() ?? systemTheme());
  };
  media.addEventListener("change", onSystemChange);
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    media.removeEventListener("change", onSystemChange);
    window.removeEventListener("storage", onStorage);
  };
}

/** Switches the page and remembers the choice. */
export function chooseTheme(theme: Theme) {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage blocked: the choice lasts until the page is left.
  }
  apply(theme);
}

/** The server does not know the visitor's theme; the first render in the browser says light. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, snapshot, () => "light");
}
