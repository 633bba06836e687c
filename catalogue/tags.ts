import { present } from "./present.ts";

function editDistance(a: string, b: string): number {
  const [from, to] = [a.toLowerCase(), b.toLowerCase()];
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

export function nearestTag(tag: string, declared: readonly string[]): string | null {
  const [best] = declared
    .map((candidate) => ({ tag: candidate, distance: editDistance(tag, candidate) }))
    .sort((a, b) => a.distance - b.distance);
  const closeEnough = Math.max(2, Math.floor(tag.length / 3));
  return best && best.distance <= closeEnough ? best.tag : null;
}

export function undeclaredTagProblem(tag: string, declared: readonly string[]): string | null {
  // Every writing is tagged Write (schema.ts).
  if (declared.includes(tag) || tag === "Write") return null;
  const nearest = nearestTag(tag, declared);
  const advice = nearest
    ? `did you mean "${nearest}"?`
    : "a new tag must first be added to the tags list of content/site.yaml";
  return `has the tag "${tag}", which is not in the tags of content/site.yaml: ${advice}`;
}
