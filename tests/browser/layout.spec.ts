/**
 * Every page kind of the fixture site, the notes list in every sort and filter, at a phone's width
 * and a desktop's, screenshotted in the light and the dark theme (under test-results/) and checked
 * for what falls apart: a page that scrolls sideways, text that leaves its box, a value such as
 * "9.5 / 10" broken across lines, list titles that start at different x positions, a header that is
 * not aligned with the content column or takes more than one row on a phone. One browser context
 * per width, every page in turn.
 */
import { expect, test } from "@playwright/test";
import { EMBED_ORIGINS } from "../../catalogue/embeds.ts";
import { SORT_KEYS } from "../../catalogue/sort.ts";
import { first } from "../support/lists.ts";
import { catalogue } from "./fixture-site.ts";
import { waitForReady } from "./helpers.ts";

/** The longest title of a list: the entry most likely to overflow. */
const longest = <T extends { name: string }>(items: readonly T[]) =>
  items.reduce((long, item) => (item.name.length > long.name.length ? item : long), first(items));

const PAGES: [name: string, path: string][] = [
  ["home", "/"],
  ["now", "/now"],
  ["about", "/about"],
  ["apps", "/apps"],
  ["app", longest(catalogue.apps).path],
  ["work", "/work"],
  ["job", longest(catalogue.work).path],
  ["notes", "/notes"],
  ...SORT_KEYS.map((sort): [string, string] => [`notes-by-${sort}`, `/notes?sort=${sort}`]),
  ["notes-tagged", `/notes?tag=${encodeURIComponent(first(catalogue.tags))}&sort=rating`],
  ["notes-searched", "/notes?q=the"],
  ["notes-none-found", "/notes?q=zzzz"],
  ["note", longest(catalogue.notes).path],
  ["shelves", "/notes/shelves"],
  ["quotes", "/quotes"],
  ["quote", first(catalogue.quotes).path],
  ["stats", "/stats"],
  ["stats-year", `/stats/${first(catalogue.readNotes).date.slice(0, 4)}`],
  ["search", "/search?q=the"],
  ["write", "/write"],
  ["essay", longest(catalogue.writings).path],
  ["podcast", "/podcast"],
  ["videos", "/videos"],
  ["contact", "/contact"],
  ["updates", "/updates"],
  ["update", first(catalogue.updates).path],
  ["not-found", "/no-such-page"],
];

const WIDTHS = [
  ["phone", 390],
  ["desktop", 1280],
] as const;

/** Runs in the page: every layout problem it shows, in words. */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    problems.push(`scrolls sideways: ${root.scrollWidth} px of content in ${root.clientWidth} px`);
  }

  /** The box a text lays out in: its nearest ancestor that is not inline. */
  const boxOf = (element: Element): Element => {
    let box = element;
    while (box.parentElement && getComputedStyle(box).display.startsWith("inline") && box.tagName !== "BUTTON") {
      box = box.parentElement;
    }
    return box;
  };
  const describe = (element: Element) =>
    `<${element.tagName.toLowerCase()}${element.className ? ` class="${element.className}"` : ""}>`;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? "";
    const parent = node.parentElement;
    if (!text || !parent || parent.closest("script, style, noscript, .visually-hidden, .honeypot")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = [...range.getClientRects()].filter((rect) => rect.width > 0);
    if (lines.length === 0) continue;
    const box = boxOf(parent);
    const edges = box.getBoundingClientRect();
    const style = getComputedStyle(box);
    // Text an element cuts off on purpose (an ellipsis) is inside its box as the visitor sees it.
    if (style.textOverflow === "ellipsis" && style.overflowX !== "visible") continue;
    const outside = lines.some((line) => line.left < edges.left - 1 || line.right > edges.right + 1);
    if (outside) problems.push(`"${text.slice(0, 40)}" leaves its box ${describe(box)}`);
  }

  // A score is read as one value: "9.5 / 10" on one line.
  const scores = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = scores.nextNode(); node; node = scores.nextNode()) {
    if (!/\/ 10/.test(node.textContent ?? "")) continue;
    const holder = node.parentElement;
    if (!holder) continue;
    // The score's text: from its number to "/ 10", possibly across several text nodes.
    const match = /\d+(?:\.\d+)? \/ 10/.exec(holder.textContent ?? "");
    if (!match) continue;
    const range = document.createRange();
    let offset = 0;
    const texts = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
    for (let part = texts.nextNode(); part; part = texts.nextNode()) {
      const length = part.textContent?.length ?? 0;
      const [start, end] = [match.index - offset, match.index + match[0].length - offset];
      if (start >= 0 && start <= length) range.setStart(part, start);
      if (end >= 0 && end <= length) range.setEnd(part, end);
      offset += length;
    }
    const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => rect.top));
    if (tops.size > 1) problems.push(`"${match[0]}" breaks across lines in ${describe(holder)}`);
  }

  // The titles of a one-column list start at one x, photo or not.
  const writingTitles = new Set(
    [...document.querySelectorAll(".writing-title")].map((title) => Math.round(title.getBoundingClientRect().left)),
  );
  if (writingTitles.size > 1) problems.push(`the writings' titles start at ${[...writingTitles].join(", ")} px`);

  // On a phone the header is one row: its name and buttons share a line.
  const header = document.querySelector(".site-header");
  if (header && innerWidth < 500) {
    const rows = new Set(
      [...header.children]
        .filter((child) => child.getBoundingClientRect().height > 0)
        .map((child) => Math.round(child.getBoundingClientRect().top + child.getBoundingClientRect().height / 2)),
    );
    if (rows.size > 1) problems.push(`the header takes ${rows.size} rows`);
  }

  // The header's name and buttons line up with the content column's edges.
  const main = document.querySelector("main");
  const name = document.querySelector(".site-header .site-name");
  const lastButton = document.querySelector(".site-header .menu-button");
  if (main && name && lastButton) {
    const column = main.getBoundingClientRect();
    const padding = getComputedStyle(main);
    const [left, right] = [
      column.left + Number.parseFloat(padding.paddingLeft),
      column.right - Number.parseFloat(padding.paddingRight),
    ];
    const nameLeft = name.getBoundingClientRect().left;
    const buttonRight = lastButton.getBoundingClientRect().right;
    if (Math.abs(nameLeft - left) > 1)
      problems.push(`the header's name starts at ${nameLeft} px, the content at ${left} px`);
    if (Math.abs(buttonRight - right) > 1)
      problems.push(`the header's menu button ends at ${buttonRight} px, the content at ${right} px`);
  }
  return problems;
}

for (const [device, width] of WIDTHS) {
  test(`every page at ${width} px (${device}), in both themes: no sideways scroll, no text out of its box, scores on one line, the header on the content column and in one row`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    // The players' hosts out of reach (as offline): the pages' own layout, and no request leaves the machine.
    for (const origin of Object.values(EMBED_ORIGINS)) {
      await context.route(`${origin}/**`, (route) => route.abort("internetdisconnected"));
    }
    const page = await context.newPage();
    const problems: string[] = [];
    for (const [name, path] of PAGES) {
      await page.goto(path);
      await waitForReady(page);
      await page.evaluate(() => document.fonts.ready);
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        await page.screenshot({ path: testInfo.outputPath(`${device}-${name}-${theme}.png`), fullPage: true });
      }
      await page.emulateMedia({ colorScheme: "light" });
      problems.push(...(await page.evaluate(layoutProblems)).map((problem) => `${path}: ${problem}`));
    }
    await context.close();
    expect(problems).toEqual([]);
  });
}

test("the contact form's button keeps the word 'send' and looks like the site's other buttons, capital included", async ({
  page,
}) => {
  await page.goto("/contact");
  await waitForReady(page);
  const send = page.getByRole("button", { name: "send", exact: true });
  expect(await send.innerText()).toBe("Send");
  await page.goto("/updates");
  await waitForReady(page);
  await page.getByLabel("Email").first().fill("reader@example.com");
  const signupSend = page.locator(".signup-send").first();
  const look = (button: typeof send) =>
    button.evaluate((element) => {
      const style = getComputedStyle(element);
      return [style.backgroundColor, style.color, style.borderRadius, style.fontWeight, style.minHeight];
    });
  const signupLook = await look(signupSend);
  await page.goto("/contact");
  expect(await look(send)).toEqual(signupLook);
});

test("every page's head names the site's icon, drawn with the owner's initials, and the home-screen icon", async ({
  page,
  request,
}) => {
  await page.goto("/notes");
  // The PNG: an SVG icon costs Chromium a document of its own on every page.
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/apple-touch-icon.png");
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute("href", "/apple-touch-icon.png");
  const icon = await request.get("/favicon.svg");
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  expect(await icon.text()).toContain(`<title>${catalogue.site.name}</title>`);
  expect(await icon.text()).toContain(">TO</text>");
  const touch = await request.get("/apple-touch-icon.png");
  expect(touch.headers()["content-type"]).toBe("image/png");
});
