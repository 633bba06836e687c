import { chooseSlug, contentPath } from "../../catalogue/new-item.ts";
import { slugify } from "../../catalogue/slug.ts";
import { normaliseIsbn, type Reading, type Skipped, titleAuthorKey } from "./book.ts";
import { essayText, isDraft, type NoteToWrite, needsRatingAndTags, noteText } from "./files.ts";
import type { MediumPost } from "./medium.ts";
import type { SiteEssay, SiteNote } from "./site-notes.ts";
import { resolveTags, type TagMap } from "./tags.ts";

export type PlannedNote = { path: string; slug: string; line: number; note: NoteToWrite; text: string };

export type BookPlan = {
  notes: PlannedNote[];
  skipped: Skipped[];
  unknownShelves: Map<string, number>;
  newTags: string[];
  remarks: string[];
};

export type TagRules = { declared: readonly string[]; map: TagMap; addUnknown: boolean };

const MAX_TAGS = 3;
const NO_FILE_NAME = "its title has no letter or digit to make a file name of";

function groupByBook(readings: readonly Reading[]): Reading[][] {
  const groups: Reading[][] = [];
  const byIdentity = new Map<string, Reading[]>();
  for (const reading of readings) {
    const identities = [reading.isbn && `isbn:${reading.isbn}`, `key:${titleAuthorKey(reading.title, reading.author)}`];
    const group = identities.map((identity) => identity && byIdentity.get(identity)).find(Boolean) || [];
    if (group.length === 0) groups.push(group);
    group.push(reading);
    for (const identity of identities) if (identity) byIdentity.set(identity, group);
  }
  return groups;
}

function findOnSite(reading: Reading, notes: readonly SiteNote[]): SiteNote | undefined {
  const key = titleAuthorKey(reading.title, reading.author);
  return notes.find(
    (note) =>
      (reading.isbn !== "" && normaliseIsbn(note.isbn) === reading.isbn) ||
      titleAuthorKey(note.title, note.author) === key,
  );
}

const byDate = (a: Reading, b: Reading) => a.date.localeCompare(b.date) || a.line - b.line;

export function planBooks(
  readings: readonly Reading[],
  site: readonly SiteNote[],
  rules: TagRules,
  options: { drafts: boolean },
): BookPlan {
  const plan: BookPlan = { notes: [], skipped: [], unknownShelves: new Map(), newTags: [], remarks: [] };
  const taken = new Set(site.map((note) => note.slug));
  for (const book of groupByBook(readings)) {
    const onSite = book.map((reading) => findOnSite(reading, site)).find(Boolean);
    if (onSite) {
      for (const reading of book) {
        plan.skipped.push({ line: reading.line, what: `"${reading.title}"`, reason: `already there (${onSite.path})` });
      }
      continue;
    }
    for (const reading of [...book].sort(byDate)) {
      const what = `"${reading.title}"`;
      const skip = (reason: string) => plan.skipped.push({ line: reading.line, what, reason });
      const { tags, unknown, added } = resolveTags(reading.labels, rules.declared, rules.map, rules.addUnknown);
      for (const label of unknown) plan.unknownShelves.set(label, (plan.unknownShelves.get(label) ?? 0) + 1);
      for (const tag of added) if (!plan.newTags.includes(tag)) plan.newTags.push(tag);
      const needs = needsRatingAndTags(reading.shelf);
      if (reading.shelf === "read" && reading.rating === null && !options.drafts) {
        skip("unrated (rate it, or --drafts to write it as a draft)");
        continue;
      }
      if (needs && tags.length === 0 && !options.drafts) {
        const shelves =
          reading.labels.length > 0 ? `its shelves (${reading.labels.join(", ")}) are` : "it is on no shelf that is";
        skip(`no tag: ${shelves} no tag of content/site.yaml (--tags map.yaml, --add-tags, or --drafts)`);
        continue;
      }
      if (tags.length > MAX_TAGS) {
        plan.remarks.push(
          `line ${reading.line}: ${what} keeps the first ${MAX_TAGS} of its tags (${tags.join(", ")}): a note has at most ${MAX_TAGS}.`,
        );
      }
      if (!slugify(reading.title)) {
        skip(NO_FILE_NAME);
        continue;
      }
      const slug = chooseSlug(reading.title, taken);
      taken.add(slug);
      const note: NoteToWrite = {
        ...reading,
        tags: needs && tags.length === 0 ? null : tags.slice(0, MAX_TAGS),
        rating: reading.shelf === "reading" || reading.shelf === "want" ? null : reading.rating,
        photo: "",
      };
      plan.notes.push({ path: contentPath("note", slug), slug, line: reading.line, note, text: noteText(note) });
    }
  }
  return plan;
}

export function describePlanned({ path, note }: PlannedNote): string {
  const details = [note.shelf === "read" ? "" : note.shelf, isDraft(note) ? "draft" : ""].filter(Boolean);
  return `${path}${details.length > 0 ? ` (${details.join(", ")})` : ""}`;
}

export function planEssays(posts: readonly MediumPost[], site: readonly SiteEssay[]) {
  const plan = { essays: [] as { path: string; post: MediumPost; text: string }[], skipped: [] as Skipped[] };
  const taken = new Map(site.map((essay) => [essay.slug, essay.path]));
  for (const post of posts) {
    const slug = slugify(post.title);
    const what = `"${post.title}" (${post.file})`;
    const sameLink = post.url ? site.find((essay) => essay.mediumLink === post.url) : undefined;
    const there = sameLink?.path ?? taken.get(slug);
    const reason = there ? `already there (${there})` : slug ? undefined : NO_FILE_NAME;
    if (reason) {
      plan.skipped.push({ line: null, what, reason });
      continue;
    }
    const path = contentPath("write", slug);
    taken.set(slug, path);
    plan.essays.push({ path, post, text: essayText(post) });
  }
  return plan;
}
