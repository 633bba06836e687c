/**
 * A review's spoiler as a reader meets it, with and without JavaScript: closed, named, and open
 * after one click on its summary; the note's series beside its facts.
 */
import { expect, test } from "@playwright/test";
import { waitForReady } from "./helpers.ts";

const SECRET = "The cartographer drowns before the thaw.";

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("a spoiler is closed until one click on its summary opens it", async ({ page }) => {
      await page.goto("/notes/a-winter-almanac");
      if (javaScriptEnabled) await waitForReady(page);
      const review = page.getByRole("region", { name: "Review" });
      await expect(review.getByText("Fixture review of a book put down halfway.")).toBeVisible();
      await expect(review.getByText(SECRET)).toBeHidden();
      await review.getByText("Spoiler", { exact: true }).click();
      await expect(review.getByText(SECRET)).toBeVisible();
      await expect(page.locator(".facts")).toContainText("SeriesThe Northern Almanacs, book 2");
    });
  });
}
