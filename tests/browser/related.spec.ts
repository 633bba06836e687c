/** Related notes, other readings and read before / after on a note page. */

import { expect, test } from "@playwright/test";
import { SHELF_LABELS } from "../../catalogue/shelves.ts";
import { previousAndNext, relatedNotes } from "../support/related-reference.ts";
import { catalogue } from "./fixture-site.ts";
import { expectNoAxeViolations, waitForReady } from "./helpers.ts";

const notes = catalogue.listedNotes;
const note = (slug: string) => {
  const found = notes.find((book) => book.slug === slug);
  if (!found) throw new Error(`no note ${slug}`);
  return found;
};

test.describe("related notes", () => {
  test("a note page lists its related notes and the notes read before and after it", async ({ page }) => {
    const subject = note("atomic-habits");
    const related = relatedNotes(subject, notes);
    const { previous, next } = previousAndNext(subject, notes);
    expect(related.length).toBeGreaterThanOrEqual(2);
    if (!previous || !next) throw new Error("atomic-habits should have neighbours on both sides");

    await page.goto(subject.path);
    await waitForReady(page);
    const section = page.getByRole("region", { name: "Related notes" });
    const links = section.getByRole("heading", { level: 3 }).getByRole("link");
    await expect(links).toHaveText(related.map((other) => other.name));
    for (const [index, other] of related.entries()) {
      await expect(links.nth(index)).toHaveAttribute("href", other.path);
      await expect(section.getByRole("listitem").nth(index)).toContainText(
        other.rating === null ? SHELF_LABELS[other.shelf] : `Rated ${other.rating.toFixed(1)}`,
      );
    }
    await expect(section).not.toContainText(subject.name);
    await expect(page.getByRole("region", { name: "Other readings of this book" })).toHaveCount(0);

    const pager = page.getByRole("navigation", { name: "Previous and next notes" });
    await expect(pager.getByRole("link", { name: `Read before ${previous.name}` })).toHaveAttribute(
      "href",
      previous.path,
    );
    await expect(pager.getByRole("link", { name: `Read after ${next.name}` })).toHaveAttribute("href", next.path);
    await expectNoAxeViolations(page);

    // The links navigate in the app: the next note, with its own neighbours.
    await pager.getByRole("link", { name: `Read after ${next.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`${next.path}$`));
    await expect(page.getByRole("heading", { level: 1, name: next.name })).toBeVisible();
    await expect(pager.getByRole("link", { name: `Read before ${subject.name}` })).toHaveAttribute(
      "href",
      subject.path,
    );
  });

  test("a re-read book leaves its other readings out of the related notes, and its history lists them", async ({
    page,
  }) => {
    const subject = note("the-four-agreements");
    const [other] = subject.readings.filter((reading) => reading.slug !== subject.slug);
    expect(other?.slug).toBe("the-four-agreements-2");
    await page.goto(subject.path);
    const history = page.getByRole("region", { name: "Readings of this book" });
    await expect(history.getByRole("link")).toHaveAttribute("href", other?.path ?? "");
    const related = page.getByRole("region", { name: "Related notes" }).getByRole("link");
    await expect(related).toHaveText(relatedNotes(subject, notes).map((reading) => reading.name));
    await expect(related.filter({ hasText: subject.name })).toHaveCount(0);
  });
});
