import { z } from "zod";
import { parseContentDate } from "./dates.ts";
import { type DerivedBody, deriveBody } from "./derive.ts";
import { EMBED_ORIGINS, isEmbedFrom } from "./embeds.ts";
import { HANDLE_PATTERN } from "./handle.ts";
import { ownerFields } from "./owner.ts";
import type { deriveQuotes } from "./quotes.ts";
import type { Mention, ReadingEntry } from "./reading-life.ts";
import { DEFAULT_MENU, DEFAULT_TILES, SECTION_PATHS } from "./sections.ts";
import { splitSeries } from "./series.ts";
import { placeholdersOf } from "./template.ts";

const contentDate = z.string().transform((text, ctx) => {
  const day = parseContentDate(text);
  if (day === null) {
    ctx.addIssue({ code: "custom", message: `"${text}" is not a real date written M/D/YY or M/D/YYYY` });
    return z.NEVER;
  }
  return day;
});

// A field that may be left out or empty reads as "".
const orEmpty = (field: z.ZodType<string, string>) =>
  z
    .union([z.literal(""), field])
    .optional()
    .transform((value) => value ?? "");

const optionalContentDate = orEmpty(contentDate);

const webUrl = z.url({ protocol: /^https?$/, message: "must be a full http(s) URL" });
const optionalUrl = orEmpty(webUrl);
// Remote images are refused: the Content-Security-Policy loads none, and a local file is checked at build time.
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

const markdownText = text.transform((markdown) => deriveBody(markdown).html);

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

const sectionWords = z.strictObject({ blurb: text, description: text });
const sectionWithIntro = sectionWords.extend({ intro: markdownText });
const sectionMaybeIntro = sectionWords.extend({ intro: markdownText.optional() });

const sectionsSchema = z.strictObject({
  now: z.strictObject({ blurb: text }),
  about: z.strictObject({ blurb: text }),
  apps: sectionWords,
  notes: sectionMaybeIntro.extend({
    noteDescription: template(["title", "author", "rating"]),
    shelfNoteDescription: template(["title", "author", "shelf"]),
  }),
  stats: z.strictObject({
    blurb: text,
    description: text,
    yearDescription: template(["year", "count"]),
  }),
  shelves: z.strictObject({ blurb: text.optional(), description: text }),
  quotes: z.strictObject({ blurb: text.optional(), description: text }),
  write: sectionWithIntro,
  work: sectionWords,
  podcast: sectionMaybeIntro,
  videos: sectionMaybeIntro,
  contact: sectionWithIntro,
  /** `welcome.body` stays Markdown: the welcome mail renders it with absolute links and as plain text. */
  updates: sectionWithIntro.extend({ welcome: z.strictObject({ subject: text, body: text }).optional() }),
});

const sectionLinks = z.array(
  z.strictObject({
    label: text,
    path: z.enum(SECTION_PATHS, { message: `must be the path of a section: ${SECTION_PATHS.join(", ")}` }),
  }),
);

// Each sentence has a default, so an owner may reword one and leave the rest out.
const repliesSchema = z
  .strictObject({
    invite: text.default(
      "Write a reply. I read every one, and yours appears here once I approve it; your email is only for confirming it and is never shown.",
    ),
    sent: text.default(
      "Thank you! Please confirm your reply with the link just mailed to you; it appears here once I approve it.",
    ),
    confirm: text.default("Press the button to confirm your reply and send it to me."),
    confirmed: text.default("Thank you: your reply is confirmed and now waits for my approval."),
    invalid: text.default(
      "This link confirms no reply: it may be cut short, or the reply was removed. Open the whole link from the mail, or write the reply again.",
    ),
    mail: z
      .strictObject({
        subject: template(["title"]).default("Please confirm your reply to {title}"),
        body: template(["title", "link"])
          .refine((body) => placeholdersOf(body).includes("link"), "must hold {link}, the confirmation link")
          .default(
            "Someone, hopefully you, replied to {title} with this address.\n\nTo confirm the reply, open this link and press the button:\n{link}\n\nIf you did not write it, ignore this mail: the reply will not be shown.",
          ),
      })
      .prefault({}),
  })
  .prefault({});

const ratingScaleSchema = z.strictObject({
  intro: markdownText,
  bands: z.array(z.strictObject({ band: text, meaning: text })).min(1, "needs at least one band"),
});

export const siteSchema = z.strictObject({
  ...ownerFields,
  /** The fediverse user name, @handle@host; unset, the owner's first name. */
  handle: z
    .string()
    .regex(HANDLE_PATTERN, "must be 1 to 30 lower-case letters, digits or underscores, e.g. avery")
    .optional(),
  description: text,
  icon: image.refine((path) => /\.(svg|png|jpe?g)$/i.test(path), "must be an .svg, .png or .jpg file").optional(),
  noteApp: text.optional(),
  blog: text.optional(),
  social: z.array(z.strictObject({ name: text, url: webUrl })),
  tags: z.array(text).min(1, "needs at least one tag"),
  lead: markdownText,
  footer: text,
  sections: sectionsSchema,
  menu: sectionLinks.min(1, "needs at least one section").default(DEFAULT_MENU),
  tiles: sectionLinks.default(DEFAULT_TILES),
  /** The reply form under each essay and book note, its confirm page and its mail. */
  replies: repliesSchema,
  ratingScale: ratingScaleSchema,
  notFound: z.strictObject({ description: text, text: markdownText }),
  goal: z
    .record(
      z.string().regex(/^\d{4}$/, "must be a year written with four digits, e.g. 2025"),
      z.number().int("must be a whole number of books").min(1, "must be at least 1 book"),
    )
    .optional()
    .transform((goal) => goal ?? {}),
});

export const pageSchema = z.strictObject({ title: text, description: text, updated: contentDate });

const projectFields = {
  name: text,
  position: text,
  startDate: contentDate,
  endDate: optionalContentDate,
  logo: image,
  url: optionalUrl,
  androidUrl: optionalUrl,
  iOSUrl: optionalUrl,
  tags: tagList.default([]),
  tech: z.array(text).default([]),
};

export const appSchema = z.strictObject({
  ...projectFields,
  tagLine: text,
  screenshots: z.array(image).default([]),
  linkedInLink: optionalUrl,
  facebookLink: optionalUrl,
  twitterLink: optionalUrl,
  instagramLink: optionalUrl,
  youtubeLink: optionalUrl,
  productHuntLink: optionalUrl,
  future: z.string().default(""),
  team: z.array(z.strictObject({ name: text, url: optionalUrl, role: text })).default([]),
});

export const workSchema = z.strictObject({
  ...projectFields,
  location: text,
  accomplishments: z.array(text).default([]),
});

const postFields = {
  name: text,
  date: contentDate,
  time: minutes,
  photo: orEmpty(image),
  link: optionalUrl,
  twosLink: optionalUrl,
  mediumLink: optionalUrl,
  patreonLink: optionalUrl,
  podcastLink: optionalUrl,
  youtubeLink: optionalUrl,
};

export const noteTags = tagList.max(3, "has more than 3 tags");
const isbn = orEmpty(
  z
    .string()
    .regex(/^(?:\d{9}[\dX]|\d{13})$/, "must be an ISBN: 13 digits, or 10 of which the last may be X, no hyphens"),
);
export const noteRating = z
  .number()
  .min(0, "must be between 0 and 10")
  .max(10, "must be between 0 and 10")
  .refine((value) => Number(value.toFixed(1)) === value, "must have at most one decimal");

export const seriesSchema = z.strictObject({
  name: text,
  number: z
    .union([
      z.number().min(0, "must be 0 or more"),
      z.string().regex(/^\d+(?:\.\d+)?-\d+(?:\.\d+)?$/, 'must be a number such as 2 or 1.5, or a range such as "1-3"'),
    ])
    .optional(),
});

export const SHELVES = ["reading", "want", "did-not-finish"] as const;
export type Shelf = "read" | (typeof SHELVES)[number];
const UNREAD_SHELVES: readonly Shelf[] = ["reading", "want"];

const noteFields = z.strictObject({
  ...postFields,
  author: text,
  shelf: z
    .enum(SHELVES, {
      message: `must be one of ${SHELVES.join(", ")}; leave it out for a book you have read`,
    })
    .optional(),
  tags: noteTags.min(1, "needs at least one tag").optional(),
  rating: noteRating.optional(),
  isbn,
  series: seriesSchema.optional(),
  podcastEmbed: optionalUrl,
  youtubeEmbed: optionalUrl,
  releaseDate: optionalContentDate,
});
type NoteFields = z.output<typeof noteFields>;

export type ShelfAndRating =
  | { shelf: "read"; rating: number }
  | { shelf: "did-not-finish"; rating: number | null }
  | { shelf: "reading" | "want"; rating: null };

type ParsedNote = Omit<NoteFields, "shelf" | "tags" | "rating"> & { tags: string[] } & ShelfAndRating;

const fieldIssue = (ctx: z.RefinementCtx, field: keyof NoteFields, message: string) =>
  ctx.addIssue({ code: "custom", path: [field], message });

function checkEmbeds(note: NoteFields, ctx: z.RefinementCtx) {
  for (const [field, kind] of [
    ["podcastEmbed", "podcast"],
    ["youtubeEmbed", "video"],
  ] as const) {
    if (note[field] && !isEmbedFrom(kind, note[field]))
      fieldIssue(ctx, field, `must be a player URL from ${EMBED_ORIGINS[kind]}`);
  }
  if ((note.podcastEmbed || note.youtubeEmbed) && !note.releaseDate) {
    fieldIssue(ctx, "releaseDate", "is required with a podcast or video embed");
  }
}

// A draft may still lack what a published note needs, never hold what its shelf refuses.
function checkShelf(draft: boolean) {
  return (note: NoteFields, ctx: z.RefinementCtx) => {
    const shelf: Shelf = note.shelf ?? "read";
    const unread = UNREAD_SHELVES.includes(shelf);
    if (unread && note.rating !== undefined) {
      fieldIssue(
        ctx,
        "rating",
        `must be left out on the "${shelf}" shelf: a book not read yet has no rating (give it one when you finish it and remove the shelf)`,
      );
    }
    if (draft) return;
    if (!unread && note.tags === undefined) fieldIssue(ctx, "tags", "is required but missing");
    if (shelf === "read" && note.rating === undefined) fieldIssue(ctx, "rating", "is required but missing");
  };
}

function shelved({ shelf, tags, rating, ...fields }: NoteFields): ParsedNote {
  // A name written with Goodreads' series suffix reads as the name and its series.
  const named = fields.series ? null : splitSeries(fields.name);
  const series = fields.series ?? named?.series ?? undefined;
  const common = { ...fields, name: named?.title ?? fields.name, series, tags: tags ?? [] };
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

export const draftNoteSchema = noteFields.superRefine(checkEmbeds).superRefine(checkShelf(true)).transform(shelved);

export const writingSchema = z.strictObject({
  ...postFields,
  tags: tagList.default([]).transform((tags) => ["Write", ...tags.filter((tag) => tag !== "Write")]),
});

export const updateSchema = z.strictObject({ title: text, date: contentDate, draft: z.boolean().default(false) });

export type Located<Category extends string> = {
  category: Category;
  slug: string;
  path: string;
} & DerivedBody;

export type Site = z.infer<typeof siteSchema>;
export type Page = z.infer<typeof pageSchema> & { slug: string } & DerivedBody;
export type App = z.infer<typeof appSchema> & Located<"apps">;
export type Work = z.infer<typeof workSchema> & Located<"Work">;
export type Note = z.infer<typeof noteSchema> &
  Located<"book"> &
  ReturnType<typeof deriveQuotes> & { readings: ReadingEntry[]; mentionedIn: Mention[] };
export type ReadNote = Note & { shelf: "read" };
export type Writing = z.infer<typeof writingSchema> & Located<"write">;
export type Item = App | Work | Note | Writing;
export type UpdateIssue = z.infer<typeof updateSchema> & Located<"updates">;
