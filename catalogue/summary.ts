import { isGeneratedCover } from "./cover-path.ts";
import type { Catalogue } from "./load.ts";
import type { Item, Page } from "./schema.ts";
import { notesPerTag, notesPerYear } from "./stats.ts";

export type BrokenReference = {
  file: string;
  field: string;
  target: string;
  problem: "missing image" | "remote image" | "no such item";
};

const ITEM_LINK = /^\/(apps|work|notes|write)\/([^?#]*)/;

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

export function summarizeCatalogue(catalogue: Catalogue, imageExists: (sitePath: string) => boolean) {
  const { listedNotes: notes } = catalogue;
  const itemPaths = new Set(catalogue.all.map((item) => item.path));
  const broken: BrokenReference[] = [];

  const checkImage = (file: string, field: string, target: string) => {
    if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) broken.push({ file, field, target, problem: "remote image" });
    else if (target.startsWith("/") && !imageExists(target.replace(/[?#].*$/, ""))) {
      broken.push({ file, field, target, problem: "missing image" });
    }
  };
  const checkBody = (file: string, body: Pick<Item, "links" | "images">) => {
    for (const target of body.links) {
      const link = ITEM_LINK.exec(target);
      if (!link) continue;
      const [, section, rest = ""] = link;
      const slug = rest.replace(/\/+$/, "");
      // "/notes/" alone is the list, not an item.
      if (slug && !itemPaths.has(`/${section}/${slug}`)) {
        broken.push({ file, field: "body", target, problem: "no such item" });
      }
    }
    for (const target of body.images) checkImage(file, "body", target);
  };

  for (const item of catalogue.all) {
    // An item's path is its folder and slug (catalogue/load.ts).
    const file = `content${item.path}.md`;
    for (const { field, target } of imageFields(item)) checkImage(file, field, target);
    checkBody(file, item);
  }
  if (catalogue.site.icon) checkImage("content/site.yaml", "icon", catalogue.site.icon);
  for (const page of Object.values(catalogue.pages) as Page[]) {
    checkBody(`content/pages/${page.slug}.md`, page);
  }

  // A body of quotes alone is no review.
  const withoutReview = notes.filter((note) => !note.reviewed);
  return {
    counts: {
      notes: notes.length,
      writings: catalogue.writings.length,
      apps: catalogue.apps.length,
      jobs: catalogue.work.length,
    },
    shelves: {
      reading: catalogue.shelves.reading.length,
      want: catalogue.shelves.want.length,
      didNotFinish: catalogue.shelves["did-not-finish"].length,
    },
    quotes: catalogue.quotes.length,
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
