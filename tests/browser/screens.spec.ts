import { expect, type Page, test } from "@playwright/test";
import { formatDateRange, formatMonthYear } from "../../catalogue/dates.ts";
import { EMBED_ORIGINS } from "../../catalogue/embeds.ts";
import { ratingText } from "../../catalogue/shelves.ts";
import { formatDuration } from "../../catalogue/stats.ts";
import { first } from "../support/lists.ts";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations, trackForeignRequests, waitForReady } from "./helpers.ts";

const owner = catalogue.site.name;
const SECTIONS = ["Now", "About", "Apps", "Notes", "Write", "Work", "Contact"];

test("home shows a tile for every section and the social links", async ({ page }) => {
  const expectLocalOnly = trackForeignRequests(page);
  await page.goto("/");
  const tiles = page.locator(".tiles");
  for (const section of SECTIONS) {
    await expect(tiles.getByRole("link", { name: new RegExp(`^${section}\\b`) })).toHaveAttribute(
      "href",
      `/${section.toLowerCase()}`,
    );
  }
  const social = page.getByRole("list", { name: "Find me elsewhere" });
  for (const link of catalogue.site.social) {
    await expect(social.getByRole("link", { name: link.name })).toHaveAttribute("href", link.url);
  }
  await expectNoAxeViolations(page);
  expectLocalOnly();
});

async function expectMarkdownPage(page: Page, path: string, title: string, updated: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // In the site's one date style ("June 2025"), as every other date reads.
  await expect(page.getByText(`Last updated ${formatMonthYear(updated)}`)).toBeVisible();
  await expect(page.getByText(`Last updated ${formatMonthYear(updated)}`).locator("time")).toHaveAttribute(
    "datetime",
    updated,
  );
  await expectNoAxeViolations(page);
}

test("now shows the current activities and its last-updated date, as the owner wrote it (6/6/25 in the sample)", async ({
  page,
}) => {
  await expectMarkdownPage(page, "/now", "Now", catalogue.pages.now.updated);
});

test("about shows the biography and its last-updated date, as the owner wrote it (6/6/25 in the sample)", async ({
  page,
}) => {
  await expectMarkdownPage(page, "/about", "About", catalogue.pages.about.updated);
});

test("about links to every app, every work page and the notes", async ({ page }) => {
  await page.goto("/about");
  const hrefs = await page.locator(".prose a").evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  for (const item of [...catalogue.apps, ...catalogue.work]) expect(hrefs).toContain(item.path);
  expect(hrefs).toContain("/notes");
});

test("apps lists every app with its logo and dates (an empty end reads Present), each linking to its own page", async ({
  page,
}) => {
  await page.goto("/apps");
  for (const app of catalogue.apps) await expect(page.locator(`a[href="${app.path}"]`)).toBeVisible();
  for (const app of catalogue.apps) {
    const card = page.locator(`a[href="${app.path}"]`);
    await expect(card).toContainText(app.name);
    await expect(card).toContainText(formatDateRange(app.startDate, app.endDate));
    expect(await card.locator("img").evaluate((img) => img.getBoundingClientRect().width)).toBe(100);
  }
  await expect(page.getByText(/– Present$/).first()).toBeVisible();
  await expectNoAxeViolations(page);
});

test("app detail shows tag line, emphasis, position, 200x432 screenshots, links, tech, team and future", async ({
  page,
}) => {
  for (const app of catalogue.apps) {
    await page.goto(app.path);
    await expect(page.getByRole("heading", { level: 1, name: app.name })).toBeVisible();
    await expect(page.getByText(app.tagLine)).toBeVisible();
    await expect(page.getByText(app.position, { exact: false }).first()).toBeVisible();
    await expect(page.locator(".prose em").first()).toBeVisible();
    expect(await page.locator(".detail-header img").evaluate((img) => img.getBoundingClientRect().width)).toBe(200);
    const shots = page.locator(".screenshots img");
    await expect(shots).toHaveCount(app.screenshots.length);
    for (const size of await shots.evaluateAll((images) =>
      images.map((image) => [image.getAttribute("width"), image.getAttribute("height")]),
    )) {
      expect(size).toEqual(["200", "432"]);
    }
    for (const tech of app.tech) await expect(page.locator(".chips").getByText(tech, { exact: true })).toBeVisible();
    for (const member of app.team) await expect(page.locator(".team")).toContainText(`${member.name} — ${member.role}`);
    await expect(page.getByText(app.future)).toBeVisible();
    for (const url of [app.url, app.iOSUrl, app.androidUrl, app.twitterLink, app.instagramLink].filter(Boolean)) {
      await expect(page.locator(`a[href="${url}"]`).first()).toBeAttached();
    }
  }
  await expectNoAxeViolations(page);
});

test("work lists the jobs, each linking to its own page", async ({ page }) => {
  await page.goto("/work");
  for (const job of catalogue.work) await expect(page.locator(`a[href="${job.path}"]`)).toBeVisible();
  await expectNoAxeViolations(page);
});

test("each job page shows position, location, date range, accomplishments, tech and links", async ({ page }) => {
  for (const job of catalogue.work) {
    await page.goto(job.path);
    await expect(page.getByRole("heading", { level: 1, name: job.name })).toBeVisible();
    await expect(page.getByText(job.position).first()).toBeVisible();
    await expect(page.getByText(`${job.location} · ${formatDateRange(job.startDate, job.endDate)}`)).toBeVisible();
    for (const line of job.accomplishments) await expect(page.getByText(line)).toBeVisible();
    for (const tech of job.tech) await expect(page.locator(".chips").getByText(tech, { exact: true })).toBeVisible();
    if (job.url) await expect(page.locator(`a[href="${job.url}"]`)).toBeVisible();
  }
  await expectNoAxeViolations(page);
});

test("every app has a detail page", async ({ request }) => {
  for (const app of catalogue.apps) {
    const response = await request.get(app.path, { maxRedirects: 0 });
    expect(response.status(), app.path).toBe(200);
    expect(await response.text()).toContain(`<h1>${app.name}</h1>`);
  }
});

test("logos are 100 wide in lists and 200 on detail pages; screenshots are 200x432", async ({ page }) => {
  const logoWidth = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((img) => img.getBoundingClientRect().width);
  const withScreenshots = catalogue.apps.find((app) => app.screenshots.length > 0);
  if (!withScreenshots) throw new Error("the fixture needs an app with screenshots");
  for (const [list, detail] of [
    ["/apps", withScreenshots.path],
    ["/work", first(catalogue.work).path],
  ] as const) {
    await page.goto(list);
    expect(await logoWidth(".project-card img")).toBe(100);
    await page.goto(detail);
    expect(await logoWidth(".detail-header img")).toBe(200);
  }
  await page.goto(withScreenshots.path);
  const shot = page.locator(".screenshots img").first();
  expect(await shot.evaluate((img) => [img.getBoundingClientRect().width, img.getBoundingClientRect().height])).toEqual(
    [200, 432],
  );
});

test("every note has a page (a re-read at -2) with cover, title, author, date, rating, time, tags, review, links", async ({
  page,
  request,
}) => {
  expect(catalogue.notes.map((book) => book.slug)).toContain("the-four-agreements-2");
  for (const { path } of catalogue.notes) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
  }
  const note = catalogue.notes.find((book) => book.slug === "atomic-habits");
  if (!note) throw new Error("atomic-habits is missing");
  const expectLocalOnly = trackForeignRequests(page, Object.values(EMBED_ORIGINS));
  await page.goto(note.path);
  const cover = page.getByRole("img", { name: `Cover of ${note.name}` });
  await expect(cover).toHaveAttribute("width", "129");
  await expect(cover).toHaveAttribute("height", "190");
  // The book has no photo: the cover is drawn, written into the page.
  expect(await cover.evaluate((drawing) => [drawing.tagName, drawing.getBoundingClientRect().width])).toEqual([
    "svg",
    129,
  ]);
  await expect(page.getByRole("heading", { level: 1, name: note.name })).toBeVisible();
  await expect(page.getByText(`by ${note.author}`)).toBeVisible();
  await expect(page.getByText(formatMonthYear(note.date))).toBeVisible();
  await expect(page.getByText(`${ratingText(note.rating)}`)).toBeVisible();
  // One phrase: "Read time 1 hour 49 minutes", not "Read time 109 min read".
  await expect(page.getByText(formatDuration(note.time), { exact: true })).toBeVisible();
  await expect(page.getByText("min read")).toHaveCount(0);
  for (const tag of note.tags) await expect(page.getByRole("list", { name: "Tags" }).getByText(tag)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Review" })).toBeVisible();
  const shop = page.getByRole("link", { name: `Buy on Amazon: ${note.name}` });
  await expect(shop).toHaveAttribute("href", note.link);
  // A note's page has the room to show each link's label beside its icon.
  await expect(shop.getByText("Buy on Amazon")).toBeVisible();
  await expectNoAxeViolations(page);
  expectLocalOnly();
});

test("a note page makes no frame for its players until the visitor opens one, then plays it in place", async ({
  page,
}) => {
  const note = catalogue.notes.find((book) => book.slug === "atomic-habits");
  if (!note?.podcastEmbed || !note.youtubeEmbed) throw new Error("atomic-habits has no podcast and video players");
  await page.route(`${EMBED_ORIGINS.podcast}/**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title>" }),
  );
  await page.goto(note.path);
  await waitForReady(page);
  expect(page.frames()).toHaveLength(1);
  await page.getByText("Play the episode here").click();
  const player = page.locator(`iframe[src="${note.podcastEmbed}"]`);
  await expect(player).toHaveAttribute("title", `Podcast episode: ${note.name}`);
  expect(
    await player.evaluate((frame) => [frame.getBoundingClientRect().width, frame.getBoundingClientRect().height]),
  ).toEqual([343, 102]);
  await expect(page.locator(`iframe[src="${note.youtubeEmbed}"]`)).toHaveCount(0);
  // Closed and opened again, the same player.
  await page.getByText("Play the episode here").click();
  await page.getByText("Play the episode here").click();
  await expect(page.locator("iframe")).toHaveCount(1);
});

test("every writing has a page with the essay, its date, read time and author", async ({ page }) => {
  for (const writing of catalogue.writings) {
    const response = await page.goto(writing.path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: writing.name })).toBeVisible();
    await expect(
      page.getByText(`${owner} · ${formatMonthYear(writing.date)} · ${writing.time} min read`),
    ).toBeVisible();
    await expect(page.locator(".prose p").first()).toBeVisible();
  }
  await expectNoAxeViolations(page);
});

test("any other path answers HTTP 404 with the not-found screen", async ({ request }) => {
  for (const path of ["/no-such-page", "/notes/no-such-book", "/apps/nothing/deeper", "/write/missing"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(404);
    expect(await response.text()).toContain("Page Not Found");
  }
});

test("the not-found screen: 'Page Not Found', the apology, the home tiles and a link to contact", async ({ page }) => {
  for (const path of ["/no-such-page", "/notes/no-such-book"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
    await expect(page.getByText("Oops, looks like this page doesn't exist yet.")).toBeVisible();
    // The owner's line under the tiles and the page's description come from content/site.yaml.
    await expect(page.locator(".not-found-text")).toHaveText(
      catalogue.site.notFound.text.replace(/<[^>]+>/g, "").trim(),
    );
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      catalogue.site.notFound.description,
    );
    for (const section of SECTIONS) {
      await expect(page.locator(".tiles").getByRole("link", { name: new RegExp(`^${section}\\b`) })).toBeVisible();
    }
    await expect(
      page
        .locator("main")
        .getByRole("link", { name: /contact/i })
        .last(),
    ).toHaveAttribute("href", "/contact");
  }
  await expectNoAxeViolations(page);
});

test("every page's title is the owner's name and the page title, with a meta description", async ({ page }) => {
  const expected: Array<[string, string]> = [
    ["/", `${owner} | Personal Website`],
    ["/now", `${owner} | Now`],
    ["/apps/alpha", `${owner} | Alpha`],
    ["/work/acme", `${owner} | Acme`],
    ["/notes/germinal", `${owner} | Germinal`],
    ["/write/fear", `${owner} | Fear`],
    ["/missing", `${owner} | Page Not Found`],
  ];
  for (const [path, title] of expected) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
    await expect(page.locator("title")).toHaveCount(1);
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length, path).toBeGreaterThan(20);
  }
});

test("inner pages show Home / section / item, every part but the last a link", async ({ page }) => {
  await page.goto("/notes/deep-work");
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(crumbs.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
  await expect(crumbs.getByRole("link", { name: "Notes" })).toHaveAttribute("href", "/notes");
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText("Deep Work");
  await page.goto("/apps");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).locator('[aria-current="page"]')).toHaveText(
    "Apps",
  );
});

test("layout fits a 320 px phone without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  for (const path of ["/", "/apps/alpha", "/work/acme", "/notes/atomic-habits", "/write/fear", "/missing"]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test.describe("the owner's words", () => {
  test("the owner's words on the pages come from the content (the fixture's site.yaml) and none from the code", async ({
    page,
  }) => {
    const { site } = catalogue;
    /** The text the browser shows for the owner's Markdown, rendered to HTML by the catalogue. */
    const plain = (html: string) =>
      page.evaluate((markup) => {
        const holder = document.createElement("div");
        holder.innerHTML = markup;
        return (holder.textContent ?? "").trim();
      }, html);
    await page.goto("/");
    await expect(page.locator(".home .lede")).toHaveText(await plain(site.lead));
    await expect(page.locator(".site-footer")).toContainText(`© ${site.name}. ${site.footer}`);
    for (const [label, id] of [
      ["Now", "now"],
      ["Notes", "notes"],
      ["Updates", "updates"],
    ] as const) {
      await expect(page.locator(".tiles").getByRole("link", { name: new RegExp(`^${label}\\b`) })).toContainText(
        site.sections[id].blurb,
      );
    }
    for (const [path, id] of [
      ["/contact", "contact"],
      ["/updates", "updates"],
    ] as const) {
      await page.goto(path);
      await expect(page.locator(".lede").first()).toHaveText(await plain(site.sections[id].intro));
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", site.sections[id].description);
    }
    await page.goto("/notes/deep-work");
    const deepWork = catalogue.notes.find((book) => book.slug === "deep-work");
    if (!deepWork || deepWork.excerpt) throw new Error("the fixture's deep-work note must have no review");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      site.sections.notes.noteDescription
        .replace("{title}", deepWork.name)
        .replace("{author}", deepWork.author)
        .replace("{rating}", String(deepWork.rating)),
    );
  });
});
