// The page shell's few behaviours, for every page whether React hydrates it or not: it runs inline
// in <head> before the first paint (root.tsx), so the theme and the signed-up flag are right from
// the first frame, and it listens on the document, so the buttons work as soon as they exist.
// React renders the buttons' markup and never handles them. Keep it small: it is in every page.
(() => {
  const root = document.documentElement;
  // The storage keys come from the script's own attributes (app/shell/shell.ts names them).
  const { themeKey, visitorKey, searchModule, searchIndex } = document.currentScript.dataset;
  const dark = matchMedia("(prefers-color-scheme: dark)");
  const read = (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null; // Storage blocked (private mode): as if nothing were stored.
    }
  };
  const stored = () => {
    const theme = read(themeKey);
    return theme === "light" || theme === "dark" ? theme : null;
  };
  const showTheme = (theme) => {
    root.dataset.theme = theme;
    for (const toggle of document.querySelectorAll(".theme-toggle")) {
      toggle.setAttribute("aria-pressed", String(theme === "dark"));
    }
  };
  const followSystem = () => showTheme(stored() ?? (dark.matches ? "dark" : "light"));
  const scrollButton = () => {
    const button = document.querySelector(".scroll-top");
    if (button) button.hidden = scrollY === 0;
  };

  followSystem();
  try {
    if (JSON.parse(read(visitorKey) || "{}").signedUp === true) root.dataset.signedUp = "true";
  } catch {
    // A damaged record: the visitor is not remembered.
  }

  dark.addEventListener("change", followSystem);
  addEventListener("storage", (event) => {
    if (event.key === themeKey || event.key === null) followSystem();
  });
  addEventListener("scroll", scrollButton, { passive: true });
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest(".theme-toggle")) {
      const theme = root.dataset.theme === "dark" ? "light" : "dark";
      try {
        localStorage.setItem(themeKey, theme);
      } catch {
        // Storage blocked: the choice lasts until the page is left.
      }
      showTheme(theme);
    } else if (target?.closest(".search-link") && searchModule && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      searchFrom(null);
    } else if (target?.closest(".scroll-top")) {
      const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
      scrollTo({ top: 0, behavior: still ? "auto" : "smooth" });
    }
  });
  // Search: "/" or Ctrl/⌘-K opens the search dialog, and a keystroke in a search field shows results
  // as one types. Its module (app/search/client.ts), then the index, load at that first use only.
  let search;
  const searchFrom = (field) => {
    if (!searchModule) return;
    search ??= import(searchModule).catch(() => {
      search = undefined; // Offline: the search forms still submit to /search.
    });
    search.then((module) => module?.searchFrom(searchIndex, field));
  };
  document.addEventListener("keydown", (event) => {
    const typing =
      event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable]");
    const command = event.ctrlKey || event.metaKey;
    if ((command && event.key === "k") || (event.key === "/" && !typing && !command && !event.altKey)) {
      event.preventDefault();
      searchFrom(null);
    }
  });
  document.addEventListener("input", (event) => {
    const field = event.target instanceof Element && event.target.closest("[data-search-field]");
    if (field) searchFrom(field);
  });
  // A player on request (a note page) is made as its <details> opens (app/components/Embed.tsx).
  document.addEventListener(
    "toggle",
    ({ target }) => {
      const box = target.open && target.querySelector(".embed[data-src]");
      if (box && !box.querySelector("iframe")) {
        box.replaceChildren(Object.assign(document.createElement("iframe"), box.dataset));
      }
    },
    true,
  );
  document.addEventListener("DOMContentLoaded", () => {
    followSystem();
    scrollButton();
    root.dataset.shell = "ready";
  });
})();
