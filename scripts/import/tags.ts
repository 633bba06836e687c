/**
 * The sources' shelves and tags as the site's tags: a shelf named like a declared tag is that tag
 * ("self-help" is "Self-help"); others follow the owner's map (`--tags map.yaml`), are added to
 * content/site.yaml (`--add-tags`), or are reported.
 */
import { isMap, isScalar, isSeq, parseDocument, parse as parseYaml } from "yaml";
import { slugify } from "../../catalogue/slug.ts";

/** Normalised shelf name → the tags it stands for ([] to leave the shelf out). */
export type TagMap = ReadonlyMap<string, readonly string[]>;

export const labelKey = (label: string) => slugify(label);

/** A new tag for a shelf: "science-fiction" → "Science fiction". */
export function tagNameOf(label: string): string {
  const words = label.trim().replace(/[-_]+/g, " ").replace(/\s+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The owner's map file: `shelf: Tag`, `shelf: [Tag, Tag]`, or `shelf: null` to leave a shelf out.
 * Throws with the problem when it is not such a map.
 */
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
      labelKey(shelf),
      tags.map((tag: string) => tag.trim()),
    );
  }
  return map;
}

export type TagResolution = { tags: string[]; unknown: string[]; added: string[] };

/** The site's tags for a book's shelves, in their order, each once. */
export function resolveTags(
  labels: readonly string[],
  declared: readonly string[],
  map: TagMap,
  addUnknown: boolean,
): TagResolution {
  const tags: string[] = [];
  const unknown: string[] = [];
  const added: string[] = [];
  const byKey = new Map(declared.map((tag) => [labelKey(tag), tag]));
  for (const label of labels) {
    const mapped = map.get(labelKey(label));
    const declaredTag = byKey.get(labelKey(label));
    if (mapped) tags.push(...mapped);
    else if (declaredTag) tags.push(declaredTag);
    else if (addUnknown) {
      const tag = tagNameOf(label);
      tags.push(tag);
      added.push(tag);
    } else unknown.push(label);
  }
  for (const tag of tags) if (!declared.includes(tag) && !added.includes(tag)) added.push(tag);
  return { tags: [...new Set(tags)], unknown, added: addUnknown ? [...new Set(added)] : [] };
}

/** Tags of the map that content/site.yaml does not declare (added only with --add-tags). */
export const undeclaredMapTags = (map: TagMap, declared: readonly string[]) =>
  [...new Set([...map.values()].flat())].filter((tag) => !declared.includes(tag));

/**
 * content/site.yaml with new tags appended to its `tags` list. The yaml Document finds the list;
 * only its own text changes, so the owner's comments, wrapping and quoting stay as they were.
 */
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
