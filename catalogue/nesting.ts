// Markdown and HTML are parsed recursively: thousands of levels overflow the stack.
import { Parser } from "htmlparser2";

export const MAX_NESTING_DEPTH = 100;

const CONTAINER_MARKER = /[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))/y;
const FENCE = /^[ \t]*(?:```|~~~)/;

function deepestContainers(markdown: string): number {
  let deepest = 0;
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) continue;
    let markers = 0;
    CONTAINER_MARKER.lastIndex = 0;
    while (CONTAINER_MARKER.exec(line)) markers++;
    // A nested list item is indented by two columns or more per level.
    if (markers > 0) deepest = Math.max(deepest, markers + Math.floor((/^[ \t]*/.exec(line)?.[0].length ?? 0) / 2));
  }
  return deepest;
}

/** Autolinks (`<https://…>`, `<me@example.com>`) read as tags too: their names are no element's. */
const ELEMENT_NAME = /^[a-z][a-z0-9-]*$/;

function deepestElements(html: string): number {
  let depth = 0;
  let deepest = 0;
  const parser = new Parser({
    onopentag(name) {
      if (!ELEMENT_NAME.test(name)) return;
      depth++;
      deepest = Math.max(deepest, depth);
    },
    onclosetag(name) {
      if (ELEMENT_NAME.test(name)) depth--;
    },
  });
  parser.end(html);
  return deepest;
}

export const nestingDepth = (text: string): number => Math.max(deepestContainers(text), deepestElements(text));

export function nestingProblem(text: string): string | null {
  const depth = nestingDepth(text);
  return depth > MAX_NESTING_DEPTH
    ? `nests blockquotes, lists or HTML elements ${depth} levels deep; at most ${MAX_NESTING_DEPTH} are allowed`
    : null;
}
