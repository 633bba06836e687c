/**
 * The declared tags: `tags` in content/site.yaml lists every tag an item may carry, so that a
 * misspelt tag ("Psychologgy") stops the build with the tag it was probably meant to be, instead
 * of quietly becoming a new filter button.
 */
import { present } from "./present.ts";

/** Tags every writing carries without declaring it (catalogue/schema.ts). */
const IMPLICIT_TAGS = new Set(["Write"]);

/** The number of single-character edits between two words, case ignored. */
function editDistance(a: string, b: string): number {
  const [from, to] = [a.toLowerCase(), b.toLowerCase()];
  // One row of the table at a time: `diagonal`, `above` and `left` are its three neighbours.
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (let i = 1; i <= from.length; i++) {
    let diagonal = i - 1;
    let left = i;
    const current = [left];
    for (const [j, above] of previous.slice(1).entries()) {
      left = Math.min(above + 1, left + 1, diagonal + (from[i - 1] === to[j] ? 0 : 1));
      current.push(left);
      diagonal = above;
    }
    previous = current;
  }
  return present(previous.at(-1), "a row of the table to have a cell per letter and one more");
}

/** The declared tag closest to `tag`, when it is close enough to be a typo of it. */
export function nearestTag(tag: string, declared: readonly string[]): string | null {
  let best: { tag: string; distance: number } | null = null;
  for (const candidate of declared) {
    const distance = editDistance(tag, candidate);
    if (!best || distance < best.distance) best = { tag: candidate, distance };
  }
  const closeEnough = Math.max(2, Math.floor(tag.length / 3));
  return best && best.distance <= closeEnough ? best.tag : null;
}

/** Why `tag` may not be used, or null when content/site.yaml declares it. */
export function undeclaredTagProblem(tag: string, declared: readonly string[]): string | null {
  if (declared.includes(tag) || IMPLICIT_TAGS.has(tag)) return null;
  const nearest = nearestTag(tag, declared);
  const advice = nearest
    ? `did you mean "${nearest}"?`
    : "a new tag must first be added to the tags list of content/site.yaml";
  return `has the tag "${tag}", which is not in the tags of content/site.yaml: ${advice}`;
}
