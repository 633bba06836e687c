/**
 * The summary `npm run check:content` prints: counts, notes per tag and per year, notes without a
 * review, the podcast and video lists, and the references that lead nowhere — a local image that
 * is not under public/, or a link in a body to a site item that does not exist. Pure: the caller
 * says which image files exist.
 */
import { isGeneratedCover } from "./cover.ts";
import type { Catalogue } from "./load.ts";
import { present } from "./present.ts";
import type { Item, Page } from "./schema.ts";
import { notesPerTag, notesPerYear } from "./stats.ts";

export type BrokenReference = {
  /** The content file that holds the reference, "content/notes/x.md". */
  file: string;
  /** The field ("photo", "logo", "screenshots") or "body" for a link or image in the Markdown. */
  field: string;
  /** The path as written, "/images/x.svg" or "/notes/x". */
  target: string;
  problem: "missing image" | "remote image" | "no such item";
};

export type ContentSummary = {
  counts: { notes: number; writings: number; apps: number; jobs: number };
  /** Most used tag first; ties by name. */
  notesPerTag: { tag: string; count: number }[];
  /** Oldest year first. */
  notesPerYear: { year: string; count: number }[];
  withoutReview: { count: number; before2020: number };
  podcasts: number;
  videos: number;
  broken: BrokenReference[];
};

/** The site paths whose items the catalogue holds; a body link to one of them must name an item. */
const ITEM_LINK = /^\/(apps|work|notes|write)\/([^?#]*)/;

const SOURCE_FOLDER: Record<Item["category"], string> = { apps: "apps", Work: "work", book: "notes", write: "write" };

const sourceFile = (item: Item) => `content/${SOURCE_FOLDER[item.category]}/${item.slug}.md`;

/** A path on this site ("/images/x.svg"), as opposed to a full URL or a protocol-relative one. */
const isLocal = (target: string) => target.startsWith("/") && !target.startsWith("//");

/** An image on another host: refused, the pages load no image from other hosts (content/README.md). */
const isRemote = (target: string) => /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(target);

/** Strips the query and fragment: "/images/x.svg?v=2" is the file /images/x.svg. */
const withoutQuery = (target: string) => target.replace(/[?#].*$/, "");

/** Every local image an item names in its fields; a generated cover is not a file under public/. */
function imageFields(item: Item): { field: string; target: string }[] {
  switch (item.category) {
    case "apps":
      return [
        { field: "logo", target: item.logo },
        ...item.screenshots.map((target) => ({ field: "screenshots", target })),
      ];
    case "Work":
      return [{ field: "logo", target: item.logo }];
    case "book":
      return isGeneratedCover(item) ? [] : [{ field: "photo", target: item.photo }];
    case "write":
      return item.photo ? [{ field: "photo", target: item.photo }] : [];
  }
}

export function summarizeCatalogue(catalogue: Catalogue, imageExists: (sitePath: string) => boolean): ContentSummary {
  const { notes } = catalogue;
  const itemPaths = new Set(catalogue.all.map((item) => item.path));
  const broken: BrokenReference[] = [];

  const checkImage = (file: string, field: string, target: string) => {
    if (isRemote(target)) broken.push({ file, field, target, problem: "remote image" });
    else if (isLocal(target) && !imageExists(withoutQuery(target))) {
      broken.push({ file, field, target, problem: "missing image" });
    }
  };
  const checkBody = (file: string, body: Pick<Item, "links" | "images">) => {
    for (const target of body.links) {
      const link = ITEM_LINK.exec(target);
      if (!link) continue;
      const [, section, rest] = link;
      const slug = present(rest, "ITEM_LINK to capture what follows the section").replace(/\/+$/, "");
      const path = `/${present(section, "ITEM_LINK to capture the section")}/${slug}`;
      // "/notes/" alone is the list, not an item.
      if (slug && !itemPaths.has(path)) {
        broken.push({ file, field: "body", target, problem: "no such item" });
      }
    }
    for (const target of body.images) checkImage(file, "body", target);
  };

  for (const item of catalogue.all) {
    const file = sourceFile(item);
    for (const { field, target } of imageFields(item)) checkImage(file, field, target);
    checkBody(file, item);
  }
  if (catalogue.site.icon) checkImage("content/site.yaml", "icon", catalogue.site.icon);
  for (const page of Object.values(catalogue.pages) as Page[]) {
    checkBody(`content/pages/${page.slug}.md`, page);
  }

  const withoutReview = notes.filter((note) => note.markdown === "");
  return {
    counts: {
      notes: notes.length,
      writings: catalogue.writings.length,
      apps: catalogue.apps.length,
      jobs: catalogue.work.length,
    },
    notesPerTag: notesPerTag(notes),
    notesPerYear: notesPerYear(notes).filter((year) => year.count > 0),
    withoutReview: {
      count: withoutReview.length,
      before2020: withoutReview.filter((note) => note.date < "2020-01-01").length,
    },
    podcasts: catalogue.withPodcast.length,
    videos: catalogue.withVideo.length,
    broken,
  };
}
