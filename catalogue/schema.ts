/**
 * The single definition of every kind of content. A file's front matter is parsed
 * by these schemas; the types the site uses are inferred from them, never written twice.
 * Category and path are not in the files: they come from the folder.
 */
import { z } from "zod";
import { parseContentDate } from "./dates.ts";
import { type DerivedBody, deriveBody } from "./derive.ts";
import { EMBED_ORIGINS, isEmbedFrom } from "./embeds.ts";
import { ownerFields } from "./owner.ts";
import type { Quote } from "./quotes.ts";
import type { Mention, ReadingEntry } from "./reading-life.ts";
import { placeholdersOf } from "./template.ts";

/** M/D/YY (20YY) or M/D/YYYY, checked to be a real day and turned into an ISO day. */
const contentDate = z.string().transform((text, ctx) => {
  const day = parseContentDate(text);
  if (day === null) {
    ctx.addIssue({ code: "custom", message: `"${text}" is not a real date written M/D/YY or M/D/YYYY` });
    return z.NEVER;
  }
  return day;
});

/** An M/D/YY date that may be empty or absent ("" means none: an open end, no release). */
const optionalContentDate = z
  .union([z.literal(""), contentDate])
  .optional()
  .transform((day) => day ?? "");

const webUrl = z.url({ protocol: /^https?$/, message: "must be a full http(s) URL" });
/** A link that may be left out; "" and absent both mean "no link". */
const optionalUrl = z
  .union([z.literal(""), webUrl])
  .optional()
  .transform((url) => url ?? "");
/**
 * An image: a file under public/, written from the site root ("/images/x.svg"). A remote image is
 * refused (content/README.md): the pages load no image from other hosts (their Content-Security-Policy
 * says so), and a local file can be checked at build time.
 */
const image = z.string().superRefine((path, ctx) => {
  if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(path)) {
    ctx.addIssue({
      code: "custom",
      message: `"${path}" is a remote image: save the file under public/images/ and write its path, e.g. "/images/notes/cover.jpg" (the site loads no image from other hosts)`,
    });
  } else if (!/^\/[^/]/.test(path)) {
    ctx.addIssue({
      code: "custom",
      message: `"${path}" must be a path from the site root, starting with /, e.g. "/images/notes/cover.jpg"`,
    });
  }
});

const text = z.string().trim().min(1, "must not be empty");
const tagList = z.array(text);
const minutes = z.number().int("must be a whole number of minutes").min(0, "must be 0 or more");

/** Markdown the owner writes in site.yaml, rendered to HTML when the catalogue is built. */
const markdownText = text.transform((markdown) => deriveBody(markdown).html);

/** A sentence of the owner's with the item's values in braces: "My notes on {title} by {author}." */
const template = (known: readonly string[]) =>
  text.superRefine((sentence, ctx) => {
    for (const name of placeholdersOf(sentence)) {
      if (!known.includes(name)) {
        ctx.addIssue({
          code: "custom",
          message: `has the placeholder {${name}}, which is not one of ${known.map((other) => `{${other}}`).join(", ")}`,
        });
      }
    }
  });

/** The values a note's description may name (app/routes/notes.$slug.tsx). */
export const NOTE_DESCRIPTION_PLACEHOLDERS = ["title", "author", "rating"] as const;
/** The values a year page's description may name (app/routes/stats.$year.tsx). */
export const YEAR_DESCRIPTION_PLACEHOLDERS = ["year", "count"] as const;
/** The values the description of an unrated note may name: {shelf} is the shelf's label ("Want to read"). */
export const SHELF_NOTE_DESCRIPTION_PLACEHOLDERS = ["title", "author", "shelf"] as const;

/** A section's words: the line under its home tile, its description for search engines, its opening words. */
const sectionWords = z.strictObject({ blurb: text, description: text });
const sectionWithIntro = sectionWords.extend({ intro: markdownText });

/** The owner's words on each page of catalogue/sections.ts; /now and /about say theirs in their own files. */
const sectionsSchema = z.strictObject({
  now: z.strictObject({ blurb: text }),
  about: z.strictObject({ blurb: text }),
  apps: sectionWords,
  notes: sectionWords.extend({
    /** A note's description for search engines when its review is empty. */
    noteDescription: template(NOTE_DESCRIPTION_PLACEHOLDERS),
    /** The same for a note with no rating: a book being read, wanted, or given up unrated. */
    shelfNoteDescription: template(SHELF_NOTE_DESCRIPTION_PLACEHOLDERS),
  }),
  stats: z.strictObject({
    blurb: text,
    description: text,
    /** A year page's description for search engines: "The {count} books I read in {year}." */
    yearDescription: template(YEAR_DESCRIPTION_PLACEHOLDERS),
  }),
  /** /notes/shelves and /quotes: what search engines show for them. */
  shelves: z.strictObject({ description: text }),
  quotes: z.strictObject({ description: text }),
  write: sectionWithIntro,
  work: sectionWords,
  podcast: sectionWords,
  videos: sectionWords,
  contact: sectionWithIntro,
  updates: sectionWithIntro,
});

/** How the owner rates books, shown beside the ratings on /stats. */
const ratingScaleSchema = z.strictObject({
  intro: markdownText,
  bands: z.array(z.strictObject({ band: text, meaning: text })).min(1, "needs at least one band"),
});

export const siteSchema = z.strictObject({
  ...ownerFields,
  description: text,
  /**
   * The site's icon (the browser tab, a phone's home screen): a square SVG, PNG or JPEG under
   * public/. Without it the build draws the owner's initials (catalogue/site-icon.ts).
   */
  icon: image.refine((path) => /\.(svg|png|jpe?g)$/i.test(path), "must be an .svg, .png or .jpg file").optional(),
  /** The note-taking app a `twosLink` leads to: "Read on <noteApp>"; without it, "Read on the note app". */
  noteApp: text.optional(),
  /** The blog a `mediumLink` leads to: "Read on <blog>"; without it, "Read on Medium". */
  blog: text.optional(),
  social: z.array(z.strictObject({ name: text, url: webUrl })),
  /** Every tag an item may carry; a tag outside this list stops the build (catalogue/tags.ts). */
  tags: z.array(text).min(1, "needs at least one tag"),
  /** The opening words of the home page, in the owner's voice (Markdown). */
  lead: markdownText,
  /** The line at the foot of every page. */
  footer: text,
  sections: sectionsSchema,
  ratingScale: ratingScaleSchema,
  /** The not-found screen's words besides the spec's message: its description and a line (Markdown) under the tiles. */
  notFound: z.strictObject({ description: text, text: markdownText }),
  /**
   * The reading goal of each year, in books read to the end: `goal: { 2025: 30 }`. Optional; /now
   * shows the latest year's, each year page its own.
   */
  goal: z
    .record(
      z.string().regex(/^\d{4}$/, "must be a year written with four digits, e.g. 2025"),
      z.number().int("must be a whole number of books").min(1, "must be at least 1 book"),
    )
    .optional()
    .transform((goal) => goal ?? {}),
});

export const pageSchema = z.strictObject({
  title: text,
  description: text,
  updated: contentDate,
});

export const appSchema = z.strictObject({
  name: text,
  tagLine: text,
  position: text,
  startDate: contentDate,
  endDate: optionalContentDate,
  logo: image,
  screenshots: z.array(image).default([]),
  url: optionalUrl,
  androidUrl: optionalUrl,
  iOSUrl: optionalUrl,
  linkedInLink: optionalUrl,
  facebookLink: optionalUrl,
  twitterLink: optionalUrl,
  instagramLink: optionalUrl,
  youtubeLink: optionalUrl,
  productHuntLink: optionalUrl,
  tags: tagList.default([]),
  tech: z.array(text).default([]),
  future: z.string().default(""),
  team: z.array(z.strictObject({ name: text, url: optionalUrl, role: text })).default([]),
});

export const workSchema = z.strictObject({
  name: text,
  position: text,
  startDate: contentDate,
  endDate: optionalContentDate,
  location: text,
  logo: image,
  url: optionalUrl,
  androidUrl: optionalUrl,
  iOSUrl: optionalUrl,
  tags: tagList.default([]),
  tech: z.array(text).default([]),
  accomplishments: z.array(text).default([]),
});

const noteTags = tagList.max(3, "has more than 3 tags");
/**
 * A book's ISBN, digits only: how `npm run import` recognises a book the site already has, and what
 * `npm run export` hands to Goodreads. "" and absent both mean none.
 */
const isbn = z
  .union([
    z.literal(""),
    z
      .string()
      .regex(/^(?:\d{9}[\dX]|\d{13})$/, "must be an ISBN: 13 digits, or 10 of which the last may be X, no hyphens"),
  ])
  .optional()
  .transform((value) => value ?? "");
const rating = z
  .number()
  .min(0, "must be between 0 and 10")
  .max(10, "must be between 0 and 10")
  .refine((value) => Number(value.toFixed(1)) === value, "must have at most one decimal");

/**
 * The shelves a note file may name in `shelf`. A note without one is a book read to the end;
 * `date` is then the day it was finished, and for a shelf: the day started (reading), added (want)
 * or stopped (did-not-finish).
 */
export const SHELVES = ["reading", "want", "did-not-finish"] as const;
/** Where a book stands: "read" is the shelf of a note that names none. */
export type Shelf = "read" | (typeof SHELVES)[number];
/** Shelves whose books have not been read yet: no rating, and tags may wait. */
const UNREAD_SHELVES: readonly Shelf[] = ["reading", "want"];

const noteFields = z.strictObject({
  name: text,
  author: text,
  date: contentDate,
  shelf: z
    .enum(SHELVES, {
      message: `must be one of ${SHELVES.join(", ")}; leave it out for a book you have read`,
    })
    .optional(),
  tags: noteTags.min(1, "needs at least one tag").optional(),
  rating: rating.optional(),
  time: minutes,
  photo: z
    .union([z.literal(""), image])
    .optional()
    .transform((photo) => photo ?? ""),
  link: optionalUrl,
  isbn,
  twosLink: optionalUrl,
  mediumLink: optionalUrl,
  patreonLink: optionalUrl,
  podcastLink: optionalUrl,
  podcastEmbed: optionalUrl,
  youtubeLink: optionalUrl,
  youtubeEmbed: optionalUrl,
  releaseDate: optionalContentDate,
});
type NoteFields = z.output<typeof noteFields>;

/**
 * A note's shelf and rating as the site uses them: a read book always has its rating, a book given
 * up may have one, and a book being read or wanted never has one.
 */
export type ShelfAndRating =
  | { shelf: "read"; rating: number }
  | { shelf: "did-not-finish"; rating: number | null }
  | { shelf: "reading" | "want"; rating: null };

type ParsedNote = Omit<NoteFields, "shelf" | "tags" | "rating"> & { tags: string[] } & ShelfAndRating;

function checkEmbeds(note: NoteFields, ctx: z.RefinementCtx) {
  for (const [field, kind] of [
    ["podcastEmbed", "podcast"],
    ["youtubeEmbed", "video"],
  ] as const) {
    if (note[field] && !isEmbedFrom(kind, note[field])) {
      ctx.addIssue({ code: "custom", path: [field], message: `must be a player URL from ${EMBED_ORIGINS[kind]}` });
    }
  }
  if ((note.podcastEmbed || note.youtubeEmbed) && !note.releaseDate) {
    ctx.addIssue({ code: "custom", path: ["releaseDate"], message: "is required with a podcast or video embed" });
  }
}

/**
 * What each shelf asks of `tags` and `rating`. A draft may still leave out what a published note
 * needs (`npm run new` writes one when it was not told them), never hold what its shelf refuses.
 */
function checkShelf(draft: boolean) {
  return (note: NoteFields, ctx: z.RefinementCtx) => {
    const shelf: Shelf = note.shelf ?? "read";
    const unread = UNREAD_SHELVES.includes(shelf);
    if (unread && note.rating !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["rating"],
        message: `must be left out on the "${shelf}" shelf: a book not read yet has no rating (give it one when you finish it and remove the shelf)`,
      });
    }
    if (draft) return;
    if (!unread && note.tags === undefined) {
      ctx.addIssue({ code: "custom", path: ["tags"], message: "is required but missing" });
    }
    if (shelf === "read" && note.rating === undefined) {
      ctx.addIssue({ code: "custom", path: ["rating"], message: "is required but missing" });
    }
  };
}

/** The shelf spelled out ("read" when none is written), absent tags as none, absent rating as null. */
function shelved({ shelf, tags, rating, ...fields }: NoteFields): ParsedNote {
  const common = { ...fields, tags: tags ?? [] };
  switch (shelf) {
    case undefined:
      // Only a draft reaches here without a rating; it is never shown.
      return { ...common, shelf: "read", rating: rating ?? 0 };
    case "did-not-finish":
      return { ...common, shelf, rating: rating ?? null };
    default:
      return { ...common, shelf, rating: null };
  }
}

export const noteSchema = noteFields.superRefine(checkEmbeds).superRefine(checkShelf(false)).transform(shelved);

/**
 * A draft note (`draft: true`, never published) is checked like any other, except that its tags
 * and rating may still be missing: `npm run new` creates one when it was not told them.
 */
export const draftNoteSchema = noteFields.superRefine(checkEmbeds).superRefine(checkShelf(true)).transform(shelved);

export const writingSchema = z.strictObject({
  name: text,
  date: contentDate,
  time: minutes,
  photo: z
    .union([z.literal(""), image])
    .optional()
    .transform((photo) => photo ?? ""),
  /** Always tagged Write; a `tags` field adds others (content/README.md). */
  tags: tagList.default([]).transform((tags) => ["Write", ...tags.filter((tag) => tag !== "Write")]),
  link: optionalUrl,
  twosLink: optionalUrl,
  mediumLink: optionalUrl,
  patreonLink: optionalUrl,
  podcastLink: optionalUrl,
  youtubeLink: optionalUrl,
});

/** An issue of the newsletter (content/updates/<slug>.md): sent by `npm run newsletter`, archived on /updates. */
export const updateSchema = z.strictObject({
  title: text,
  date: contentDate,
  /** A draft is neither listed on the site nor sendable; `preview` and `test` work on it. */
  draft: z.boolean().default(false),
});

/** What every catalogue item has besides its own fields: where it lives and what its Markdown body gives. */
type Located<Category extends string> = {
  category: Category;
  slug: string;
  path: string;
} & DerivedBody;

export type Site = z.infer<typeof siteSchema>;
export type Page = z.infer<typeof pageSchema> & { slug: string } & DerivedBody;
export type App = z.infer<typeof appSchema> & Located<"apps">;
export type Work = z.infer<typeof workSchema> & Located<"Work">;
/** What the catalogue derives for a note from its body and from the other files. */
export type NoteDerived = {
  /** The quotes of its body, in order (catalogue/quotes.ts). */
  quotes: Quote[];
  /** Whether its body holds a review: anything besides its quotes. */
  reviewed: boolean;
  /** Every reading of the same book, oldest first, this one included; empty when read once. */
  readings: ReadingEntry[];
  /** The essays that link to it, newest first. */
  mentionedIn: Mention[];
};
/** `photo` is the cover to show: the file's own, or the one generated from title and author. */
export type Note = z.infer<typeof noteSchema> & Located<"book"> & NoteDerived;
/** A book read to the end: the notes of /stats and the year pages. */
export type ReadNote = Note & { shelf: "read" };
export type Writing = z.infer<typeof writingSchema> & Located<"write">;
export type Item = App | Work | Note | Writing;
export type UpdateIssue = z.infer<typeof updateSchema> & Located<"updates">;
