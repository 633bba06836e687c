// `npm run check:sample`: facts about the shipped sample, not rules for content, so never part of `npm test`.

import { contentRoot } from "../catalogue/content-root.ts";
import { formatContentDate } from "../catalogue/dates.ts";
import { loadCatalogue } from "../catalogue/disk.ts";
import type { Catalogue } from "../catalogue/load.ts";

type SampleFact = {
  fact: string;
  holds: boolean;
  found: string;
};

const SAMPLE_TAGS = [
  "Business",
  "Self-help",
  "Leadership",
  "Management",
  "Psychology",
  "Philosophy",
  "Fiction",
  "Biography",
  "Health",
  "Diet",
  "Programming",
  "Marketing",
  "Money",
  "Finance",
  "Investing",
  "Religion",
  "Spirituality",
  "Sports",
  "Design",
];
const NOTE_SLUGS = [
  "12-rules-for-life",
  "atomic-habits",
  "sapiens",
  "zero-to-one",
  "deep-work",
  "the-alchemist",
  "the-road",
  "the-four-agreements",
  "the-four-agreements-2",
];
const WRITING_SLUGS = [
  "anti-laissez-faire",
  "be",
  "blip",
  "consistency",
  "fear",
  "time",
  "why-me",
  "you-can-learn-anything",
];
const APP_SLUGS = ["7-levels-deep", "aware", "muse", "twos"];
const JOB_SLUGS = ["google", "qualcomm", "teradata", "trustwork"];
const PAGE_DATE = "2025-06-06";

const year = (day: string) => Number(day.slice(0, 4));
const missingFrom = (wanted: readonly string[], present: readonly string[]) =>
  wanted.filter((slug) => !present.includes(slug));

function fact(text: string, problems: string[]): SampleFact {
  return { fact: text, holds: problems.length === 0, found: problems.join("; ") };
}

function sampleFacts(catalogue: Catalogue): SampleFact[] {
  // Only the notes list counts: books read, and those given up.
  const { listedNotes: notes, writings } = catalogue;
  const years = notes.map((note) => year(note.date));
  const [first, last] = [Math.min(...years), Math.max(...years)];
  const before2020 = notes.filter((note) => year(note.date) < 2020);
  const reviewedBefore = before2020.filter((note) => note.reviewed).length;
  const reviewedSince = notes.filter((note) => year(note.date) >= 2020 && note.reviewed);
  const ratings = catalogue.readNotes.map((note) => note.rating);
  const longest = Math.max(...notes.map((note) => note.time));
  const slugs = (items: readonly { slug: string }[]) => items.map((item) => item.slug);
  const missing = (what: string, wanted: readonly string[], present: readonly string[]) => {
    const absent = missingFrom(wanted, present);
    return absent.length > 0 ? [`no ${what} ${absent.join(", ")}`] : [];
  };
  const exactly = (what: string, wanted: readonly string[], present: readonly string[]) =>
    [...present].sort().join() === [...wanted].sort().join() ? [] : [`the ${what} are ${present.join(", ")}`];

  return [
    fact(
      "about 270 book notes (250 to 290)",
      notes.length >= 250 && notes.length <= 290 ? [] : [`${notes.length} notes`],
    ),
    fact("notes dated 2014 to 2025", first === 2014 && last === 2025 ? [] : [`dated ${first} to ${last}`]),
    fact("ratings from about 3.4 to 9.6, read times from 0 (unknown) to about 179 minutes", [
      ...(Math.min(...ratings) >= 3 ? [] : [`lowest rating ${Math.min(...ratings)}`]),
      ...(notes.some((note) => note.time === 0) ? [] : ["no note with an unknown time"]),
      ...(longest >= 170 && longest <= 180 ? [] : [`longest read ${longest} minutes`]),
    ]),
    fact("a review on most notes before 2020 (over 60 %)", [
      ...(before2020.length > 0 && reviewedBefore / before2020.length > 0.6
        ? []
        : [`${reviewedBefore} of ${before2020.length} notes before 2020 reviewed`]),
    ]),
    fact(
      "no review on notes from 2020 on",
      reviewedSince.length === 0 ? [] : [`reviews on ${reviewedSince.map((note) => note.slug).join(", ")}`],
    ),
    fact(`the tags include the sample's ${SAMPLE_TAGS.length} tags`, missing("tag", SAMPLE_TAGS, catalogue.tags)),
    fact("the sample's book notes, a re-read among them", missing("note", NOTE_SLUGS, slugs(notes))),
    fact(
      "about 90 writings (80 to 100)",
      writings.length >= 80 && writings.length <= 100 ? [] : [`${writings.length} writings`],
    ),
    fact("the sample's writings", missing("writing", WRITING_SLUGS, slugs(writings))),
    fact("the sample's four apps, one of them current", [
      ...exactly("apps", APP_SLUGS, slugs(catalogue.apps)),
      ...(catalogue.apps.some((app) => app.endDate === "") ? [] : ["no current app"]),
    ]),
    fact("the sample's four jobs", exactly("jobs", JOB_SLUGS, slugs(catalogue.work))),
    fact("15 or more podcast episodes and 15 or more videos", [
      ...(catalogue.withPodcast.length >= 15 ? [] : [`${catalogue.withPodcast.length} podcast episodes`]),
      ...(catalogue.withVideo.length >= 15 ? [] : [`${catalogue.withVideo.length} videos`]),
    ]),
    fact(
      "Now and About last updated 6/6/25",
      [catalogue.pages.now, catalogue.pages.about]
        .filter((page) => page.updated !== PAGE_DATE)
        .map((page) => `${page.slug} updated ${formatContentDate(page.updated)}`),
    ),
  ];
}

const facts = sampleFacts(loadCatalogue(contentRoot(process.cwd())));
for (const { fact, holds, found } of facts) console.log(`${holds ? "✓" : "✗"} ${fact}${holds ? "" : ` — ${found}`}`);
const differing = facts.filter((fact) => !fact.holds).length;
console.log(
  differing
    ? `${differing} of ${facts.length} facts about the shipped sample do not hold.`
    : "This is the shipped sample.",
);
process.exit(differing ? 1 : 0);
