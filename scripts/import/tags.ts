import { isMap, isScalar, isSeq, parseDocument, parse as parseYaml } from "yaml";
import { slugify } from "../../catalogue/slug.ts";

/** `[]` leaves the shelf out. */
export type TagMap = ReadonlyMap<string, readonly string[]>;

export function tagNameOf(label: string): string {
  const words = label.trim().replace(/[-_]+/g, " ").replace(/\s+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function parseTagMap(text: string): TagMap {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new Error(`The tag map is not valid YAML: ${(error as Error).message}`);
  }
  if (data === null || data === undefined) return new Map();
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new Error('The tag map must be a YAML map of shelf to tag, e.g. `sci-fi: "Fiction"`.');
  }
  const map = new Map<string, string[]>();
  for (const [shelf, value] of Object.entries(data)) {
    const tags = value === null ? [] : Array.isArray(value) ? value : [value];
    if (!tags.every((tag) => typeof tag === "string" && tag.trim())) {
      throw new Error(`The tag map gives "${shelf}" something that is not a tag, a list of tags or null.`);
    }
    map.set(
      slugify(shelf),
      tags.map((tag: string) => tag.trim()),
    );
  }
  return map;
}

export function resolveTags(labels: readonly string[], declared: readonly string[], map: TagMap, addUnknown: boolean) {
  const tags: string[] = [];
  const unknown: string[] = [];
  const byKey = new Map(declared.map((tag) => [slugify(tag), tag]));
  for (const label of labels) {
    const known = map.get(slugify(label)) ?? byKey.get(slugify(label)) ?? (addUnknown ? tagNameOf(label) : undefined);
    if (known === undefined) unknown.push(label);
    else tags.push(...[known].flat());
  }
  const unique = [...new Set(tags)];
  return { tags: unique, unknown, added: addUnknown ? unique.filter((tag) => !declared.includes(tag)) : [] };
}

/** Only the list's own text changes, so the owner's comments, wrapping and quoting stay as they were. */
export function addTagsToSiteYaml(text: string, tags: readonly string[]): string {
  const document = parseDocument(text);
  const list = document.get("tags", true);
  if (!isMap(document.contents) || !isSeq(list) || !list.range) {
    throw new Error("content/site.yaml has no list of tags to add to.");
  }
  const [start, end] = list.range;
  const current = list.items.map((item) => String(isScalar(item) ? item.value : item));
  if (list.flow) {
    const all = [...current, ...tags].map((tag) => JSON.stringify(tag)).join(", ");
    return `${text.slice(0, start)}[${all}]${text.slice(end)}`;
  }
  const lineStart = text.lastIndexOf("\n", start) + 1;
  const indent = text.slice(lineStart, start);
  const lastItemEnd = text.slice(0, end).trimEnd().length;
  const added = tags.map((tag) => `\n${indent}- ${JSON.stringify(tag)}`).join("");
  return `${text.slice(0, lastItemEnd)}${added}${text.slice(lastItemEnd)}`;
}
