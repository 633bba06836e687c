/** The loader on the fixture tree tests/fixtures/content: the derived lists, every field and every error. */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { coverPath } from "../../catalogue/cover-path.ts";
import { readContentFiles } from "../../catalogue/disk.ts";
import { buildCatalogue, ContentError, type ContentFile, isDraft } from "../../catalogue/load.ts";
import { comparators } from "../../catalogue/sort.ts";
import { first } from "../support/lists.ts";

const FIXTURE_ROOT = join(import.meta.dirname, "../fixtures");
const files = readContentFiles(FIXTURE_ROOT);
const catalogue = buildCatalogue(files);

const slugs = (items: readonly { slug: string }[]) => items.map((item) => item.slug);
const note = (slug: string) => {
  const found = catalogue.notes.find((book) => book.slug === slug);
  if (!found) throw new Error(`no fixture note ${slug}`);
  return found;
};

/** The fixture files with one file's text changed; fails loudly when the edit changes nothing. */
function edited(path: string, edit: (text: string) => string): ContentFile[] {
  const file = files.find((candidate) => candidate.path === path);
  if (!file) throw new Error(`no fixture file ${path}`);
  const text = edit(file.text);
  if (text === file.text) throw new Error(`the edit of ${path} changed nothing`);
  return files.map((candidate) => (candidate === file ? { path, text } : candidate));
}

/** Loads the files and expects a ContentError that names the file, the field and the problem. */
function expectContentError(
  input: ContentFile[],
  expected: { file: string; field: string | null; problem: RegExp },
): ContentError {
  let caught: unknown;
  try {
    buildCatalogue(input);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ContentError);
  const error = caught as ContentError;
  expect(error.file).toBe(expected.file);
  expect(error.field).toBe(expected.field);
  expect(error.problem).toMatch(expected.problem);
  expect(error.message).toContain(expected.file);
  if (expected.field) expect(error.message).toContain(`"${expected.field}"`);
  expect(error.message).toMatch(expected.problem);
  return error;
}

const ATOMIC = "content/notes/atomic-habits.md";

describe("derived lists", () => {
  test("the fixture tree loads into 13 notes, 3 writings, 2 apps and 2 work items", () => {
    expect(catalogue.notes).toHaveLength(13);
    expect(catalogue.writings).toHaveLength(3);
    expect(catalogue.apps).toHaveLength(2);
    expect(catalogue.work).toHaveLength(2);
  });

  test("work and apps are listed by start date, newest first", () => {
    expect(slugs(catalogue.work)).toEqual(["globex", "acme"]);
    expect(slugs(catalogue.apps)).toEqual(["alpha", "beta"]);
  });

  test("books are the book notes, newest first", () => {
    expect(slugs(catalogue.notes)).toEqual([
      "a-winter-almanac",
      "the-glass-orchard-2",
      "the-lantern-keeper",
      "salt-and-iron",
      "deep-work",
      "the-four-agreements-2",
      "atomic-habits",
      "12-rules-for-life",
      "the-four-agreements",
      "germinal",
      "the-glass-orchard",
      "all-about-love",
      "mans-search-for-meaning",
    ]);
    expect(catalogue.notes.every((book) => book.category === "book")).toBe(true);
  });

  test("writings are newest first and every one is tagged Write", () => {
    expect(slugs(catalogue.writings)).toEqual(["why-me", "fear", "be"]);
    for (const writing of catalogue.writings) expect(writing.tags).toContain("Write");
    expect(first(catalogue.writings).tags).toEqual(["Write", "Fiction"]);
  });

  test("all holds every work item, app, note and writing exactly once", () => {
    const paths = catalogue.all.map((item) => item.path);
    expect(paths).toHaveLength(2 + 2 + 13 + 3);
    expect(new Set(paths).size).toBe(paths.length);
    for (const list of [catalogue.work, catalogue.apps, catalogue.notes, catalogue.writings]) {
      for (const item of list) expect(paths).toContain(item.path);
    }
  });

  test("the tag list is the unique sorted tags of the book notes only", () => {
    expect(catalogue.tags).toEqual([
      "Biography",
      "Fiction",
      "History",
      "Philosophy",
      "Productivity",
      "Psychology",
      "Self-help",
      "Spirituality",
    ]);
    // Tags of work items ("Engineering") and writings ("Write") are not note tags.
    expect(catalogue.tags).not.toContain("Engineering");
    expect(catalogue.tags).not.toContain("Write");
  });

  test("withVideo and withPodcast hold the notes with that embed, newest release first", () => {
    expect(slugs(catalogue.withVideo)).toEqual(["deep-work", "atomic-habits"]);
    expect(slugs(catalogue.withPodcast)).toEqual(["the-four-agreements-2", "atomic-habits"]);
  });

  test("the podcast and video lists are both ordered by the shared releaseDate comparator", () => {
    for (const list of [catalogue.withVideo, catalogue.withPodcast]) {
      expect([...list].sort(comparators.releaseDate)).toEqual(list);
      const days = list.map((item) => item.releaseDate);
      expect(days).toEqual([...days].sort().reverse());
    }
  });
});

describe("fields", () => {
  test("a book note carries every field, absent links as empty strings", () => {
    const atomic = note("atomic-habits");
    expect(atomic).toMatchObject({
      name: "Atomic Habits",
      author: "James Clear",
      date: "2019-03-14",
      tags: ["Self-help", "Psychology"],
      rating: 8.7,
      time: 109,
      photo: coverPath("atomic-habits"),
      link: "https://www.amazon.com/s?k=Atomic+Habits",
      twosLink: "",
      mediumLink: "",
      patreonLink: "",
      podcastLink: "https://open.spotify.com/episode/atomic",
      podcastEmbed: "https://open.spotify.com/embed/episode/atomic",
      youtubeLink: "https://www.youtube.com/watch?v=atomic",
      youtubeEmbed: "https://www.youtube-nocookie.com/embed/atomic",
      releaseDate: "2019-12-05",
      category: "book",
      slug: "atomic-habits",
      path: "/notes/atomic-habits",
    });
    expect(atomic.html).toContain('<a href="/notes/deep-work">Deep Work</a>');
  });

  test("a note's own photo is kept; without one it gets the generated cover", () => {
    expect(note("mans-search-for-meaning").photo).toBe("/images/notes/mans-search-for-meaning.svg");
    expect(note("germinal").photo).toBe("/covers/germinal.svg");
  });

  test("a note with no review has empty html and time 0 means unknown", () => {
    const reread = note("the-four-agreements-2");
    expect(reread.html).toBe("");
    expect(reread.time).toBe(0);
  });

  test("an app carries every field; an empty endDate stays empty (Present)", () => {
    const alpha = first(catalogue.apps);
    expect(alpha).toMatchObject({
      name: "Alpha",
      tagLine: "The current app",
      position: "Founder",
      startDate: "2019-05-01",
      endDate: "",
      logo: "/images/apps/alpha.svg",
      screenshots: ["/images/apps/alpha-1.svg", "/images/apps/alpha-2.svg"],
      url: "https://www.example.com/alpha",
      androidUrl: "",
      iOSUrl: "https://www.example.com/alpha/ios",
      linkedInLink: "",
      facebookLink: "",
      twitterLink: "",
      instagramLink: "",
      youtubeLink: "",
      productHuntLink: "",
      tags: ["Productivity"],
      tech: ["TypeScript"],
      future: "More of it.",
      team: [{ name: "Sam Lee", url: "https://www.example.com/sam", role: "Design" }],
      category: "apps",
      path: "/apps/alpha",
    });
    expect(alpha.html).toContain("<em>the</em>");
    // Optional lists default to empty.
    expect(catalogue.apps[1]).toMatchObject({ screenshots: [], team: [], tech: [], endDate: "2018-03-31" });
  });

  test("a work item carries every field", () => {
    expect(catalogue.work[1]).toMatchObject({
      name: "Acme",
      position: "Software Engineer",
      startDate: "2015-06-22",
      endDate: "2018-12-14",
      location: "Springfield",
      logo: "/images/work/acme.svg",
      url: "https://www.example.com/acme",
      androidUrl: "",
      iOSUrl: "",
      tags: ["Engineering"],
      tech: ["Java"],
      accomplishments: ["Shipped things."],
      category: "Work",
      path: "/work/acme",
      html: "",
    });
  });

  test("a writing carries every field", () => {
    const fear = catalogue.writings.find((writing) => writing.slug === "fear");
    expect(fear).toMatchObject({
      name: "Fear",
      date: "2021-05-02",
      time: 2,
      photo: "/images/write/fear.svg",
      tags: ["Write"],
      link: "",
      twosLink: "https://www.example.com/twos/posts/fear",
      mediumLink: "",
      patreonLink: "",
      podcastLink: "",
      youtubeLink: "",
      category: "write",
      path: "/write/fear",
    });
    expect(catalogue.writings.find((writing) => writing.slug === "be")?.photo).toBe("");
  });

  test("a re-read has the same title under the slug -2", () => {
    expect(note("the-four-agreements").name).toBe("The Four Agreements");
    expect(note("the-four-agreements-2")).toMatchObject({
      name: "The Four Agreements",
      path: "/notes/the-four-agreements-2",
    });
    expect(note("12-rules-for-life").path).toBe("/notes/12-rules-for-life");
    expect(note("mans-search-for-meaning").name).toBe("Man's Search for Meaning");
  });

  test("a writing lives at /write/{slug}, the slug of its title", () => {
    expect(catalogue.writings.map((writing) => writing.path).sort()).toEqual([
      "/write/be",
      "/write/fear",
      "/write/why-me",
    ]);
  });

  test("the site file and the now and about pages load", () => {
    expect(catalogue.site.name).toBe("Test Owner");
    expect(catalogue.site.social).toHaveLength(2);
    expect(catalogue.pages.now).toMatchObject({ title: "Now", updated: "2024-03-14", slug: "now" });
    expect(catalogue.pages.about.html).toContain('href="/work/acme"');
  });
});

describe("loader errors name the file, the field and the problem", () => {
  test("an impossible date 2/30/17 stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('date: "3/14/19"', 'date: "2/30/17"')),
      { file: ATOMIC, field: "date", problem: /"2\/30\/17" is not a real date/ },
    );
  });

  test("an impossible optional date (releaseDate, endDate) is reported as such, not as 'Invalid input'", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('releaseDate: "12/5/19"', 'releaseDate: "2/30/17"')),
      { file: ATOMIC, field: "releaseDate", problem: /"2\/30\/17" is not a real date/ },
    );
    expectContentError(
      edited("content/work/acme.md", (text) => text.replace('endDate: "12/14/18"', 'endDate: "2/29/23"')),
      { file: "content/work/acme.md", field: "endDate", problem: /"2\/29\/23" is not a real date/ },
    );
  });

  test("a date not written M/D/YY stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('date: "3/14/19"', 'date: "2019-03-14"')),
      { file: ATOMIC, field: "date", problem: /is not a real date written M\/D\/YY/ },
    );
  });

  test("a rating above 10 stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace("rating: 8.7", "rating: 11")),
      { file: ATOMIC, field: "rating", problem: /between 0 and 10/ },
    );
  });

  test("a rating with two decimals stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace("rating: 8.7", "rating: 8.75")),
      { file: ATOMIC, field: "rating", problem: /at most one decimal/ },
    );
  });

  test("a read time that is not a whole number of minutes stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace("time: 109", "time: 1.5")),
      { file: ATOMIC, field: "time", problem: /whole number of minutes/ },
    );
  });

  test("an unknown field stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace("time: 109", 'time: 109\nsubtitle: "Tiny Changes"')),
      { file: ATOMIC, field: "subtitle", problem: /is not a known field/ },
    );
  });

  test("a misspelt required field is reported as the unknown field", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace("rating: 8.7", "ratng: 8.7")),
      { file: ATOMIC, field: "ratng", problem: /is not a known field/ },
    );
  });

  test("a missing required field stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('author: "James Clear"\n', "")),
      { file: ATOMIC, field: "author", problem: /is required but missing/ },
    );
    expectContentError(
      edited("content/apps/alpha.md", (text) => text.replace(', role: "Design"', "")),
      { file: "content/apps/alpha.md", field: "team.0.role", problem: /is required but missing/ },
    );
  });

  test("an empty required text stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('author: "James Clear"', 'author: "  "')),
      { file: ATOMIC, field: "author", problem: /must not be empty/ },
    );
  });

  test("a note needs 1 to 3 tags", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('tags: ["Self-help", "Psychology"]', "tags: []")),
      { file: ATOMIC, field: "tags", problem: /at least one tag/ },
    );
    expectContentError(
      edited(ATOMIC, (text) => text.replace('tags: ["Self-help", "Psychology"]', 'tags: ["A", "B", "C", "D"]')),
      { file: ATOMIC, field: "tags", problem: /more than 3 tags/ },
    );
  });

  test("two items with one slug stop the load", () => {
    const atomic = files.find((file) => file.path === ATOMIC) as ContentFile;
    expectContentError([...files, { ...atomic }], { file: ATOMIC, field: null, problem: /same slug "atomic-habits"/ });
  });

  test("a file name that is not the title's slug stops the load", () => {
    const error = expectContentError(
      edited(ATOMIC, (text) => text.replace('name: "Atomic Habits"', 'name: "Atomic Habits Revised"')),
      { file: ATOMIC, field: "name", problem: /does not match the file name/ },
    );
    expect(error.message).toContain("atomic-habits-revised.md");
  });

  test("a file name that is not a slug stops the load", () => {
    const renamed = files.map((file) =>
      file.path === ATOMIC ? { ...file, path: "content/notes/Atomic_Habits.md" } : file,
    );
    expectContentError(renamed, { file: "content/notes/Atomic_Habits.md", field: null, problem: /not a slug/ });
  });

  test("bad YAML stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('name: "Atomic Habits"', 'name: "Atomic Habits')),
      { file: ATOMIC, field: null, problem: /invalid YAML front matter/ },
    );
    expectContentError(
      edited("content/site.yaml", (text) => text.replace('name: "Test Owner"', "name: [Test Owner")),
      { file: "content/site.yaml", field: null, problem: /not valid YAML/ },
    );
  });

  test("a file without front matter stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace(/^---\n/, "")),
      { file: ATOMIC, field: null, problem: /must start with front matter/ },
    );
  });

  test("an embed from a foreign host stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) =>
        text.replace("https://open.spotify.com/embed/episode/atomic", "https://evil.example.com/embed/episode/atomic"),
      ),
      { file: ATOMIC, field: "podcastEmbed", problem: /player URL from https:\/\/open\.spotify\.com/ },
    );
    expectContentError(
      edited(ATOMIC, (text) =>
        text.replace("https://www.youtube-nocookie.com/embed/atomic", "https://www.youtube.com/embed/atomic"),
      ),
      { file: ATOMIC, field: "youtubeEmbed", problem: /player URL from https:\/\/www\.youtube-nocookie\.com/ },
    );
  });

  test("an embed without releaseDate stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('releaseDate: "12/5/19"\n', "")),
      { file: ATOMIC, field: "releaseDate", problem: /required with a podcast or video embed/ },
    );
  });

  test("a link that is not a full http(s) URL stops the load", () => {
    expectContentError(
      edited(ATOMIC, (text) => text.replace('link: "https://www.amazon', 'link: "ftp://www.amazon')),
      { file: ATOMIC, field: "link", problem: /full http\(s\) URL/ },
    );
  });

  test("an image that is not a path from the site root is reported with its rule", () => {
    expectContentError(
      edited("content/notes/mans-search-for-meaning.md", (text) =>
        text.replace('photo: "/images/notes/', 'photo: "images/notes/'),
      ),
      {
        file: "content/notes/mans-search-for-meaning.md",
        field: "photo",
        problem: /must be a path from the site root, starting with \//,
      },
    );
  });

  test("a remote image is refused with what to do instead (the pages load no image from other hosts)", () => {
    for (const url of ["https://cdn.example.com/cover.jpg", "//cdn.example.com/cover.jpg"]) {
      expectContentError(
        edited("content/notes/mans-search-for-meaning.md", (text) =>
          text.replace('photo: "/images/notes/mans-search-for-meaning.svg"', `photo: "${url}"`),
        ),
        {
          file: "content/notes/mans-search-for-meaning.md",
          field: "photo",
          problem: /is a remote image: save the file under public\/images\/ and write its path/,
        },
      );
    }
    expectContentError(
      edited("content/apps/alpha.md", (text) => text.replace('"/images/apps/alpha-2.svg"', '"http://x.example/a.png"')),
      { file: "content/apps/alpha.md", field: "screenshots.1", problem: /is a remote image/ },
    );
  });

  test("a missing site.yaml stops the load", () => {
    expectContentError(
      files.filter((file) => file.path !== "content/site.yaml"),
      { file: "content/site.yaml", field: null, problem: /is missing/ },
    );
  });

  test("a missing page stops the load", () => {
    expectContentError(
      files.filter((file) => file.path !== "content/pages/now.md"),
      { file: "content/pages/now.md", field: null, problem: /is missing/ },
    );
  });

  test("a bad field in site.yaml stops the load", () => {
    expectContentError(
      edited("content/site.yaml", (text) => text.replace('"owner@example.com"', '"not an email"')),
      { file: "content/site.yaml", field: "email", problem: /./ },
    );
  });
});

describe("the menu and the home tiles", () => {
  const withLists = (lists: string) =>
    edited("content/site.yaml", (text) =>
      text.replace('footer: "Fixture footer line."', `footer: "Fixture footer line."\n${lists}`),
    );

  test("without a menu or tiles in site.yaml, the site's own sections are used", () => {
    expect(catalogue.site.menu.map((link) => link.path)).toEqual([
      "/",
      "/now",
      "/about",
      "/apps",
      "/notes",
      "/write",
      "/work",
      "/contact",
      "/podcast",
      "/videos",
      "/updates",
    ]);
    expect(catalogue.site.tiles.map((link) => link.label)).toContain("Updates");
    expect(catalogue.site.tiles.map((link) => link.path)).not.toContain("/");
  });

  test("the owner's lists replace them, renamed, reordered and with sections the default leaves out", () => {
    const site = buildCatalogue(
      withLists(
        'menu:\n  - { label: "Books", path: "/notes" }\n  - { label: "Quotes", path: "/quotes" }\ntiles:\n  - { label: "Shelves", path: "/notes/shelves" }',
      ),
    ).site;
    expect(site.menu).toEqual([
      { label: "Books", path: "/notes" },
      { label: "Quotes", path: "/quotes" },
    ]);
    expect(site.tiles).toEqual([{ label: "Shelves", path: "/notes/shelves" }]);
  });

  test("an entry whose path is no section of the site stops the load and lists the paths", () => {
    expectContentError(withLists('menu:\n  - { label: "Blog", path: "/blog" }'), {
      file: "content/site.yaml",
      field: "menu.0.path",
      problem: /must be the path of a section: \/, \/now, .*\/quotes/,
    });
    expectContentError(withLists("menu: []"), {
      file: "content/site.yaml",
      field: "menu",
      problem: /needs at least one section/,
    });
  });
});

describe("drafts", () => {
  const file = (frontMatter: string) => ({ path: "content/notes/x.md", text: `---\n${frontMatter}\n---\nBody.\n` });

  test("a file is a draft when its front matter says draft: true, however YAML spells it", () => {
    for (const line of ["draft: true", "draft: True", "draft:   TRUE  # not yet", "draft : true"]) {
      expect(isDraft(file(`name: "X"\n${line}`)), line).toBe(true);
    }
  });

  test("false, a quoted value, an indented key or the body's words do not make a draft", () => {
    for (const text of [
      file('name: "X"\ndraft: false'),
      file('name: "X"\ndraft: "true"'),
      file('name: "X"\nnotes:\n  draft: true'),
      { path: "content/notes/x.md", text: '---\nname: "X"\n---\ndraft: true\n' },
    ]) {
      expect(isDraft(text), text.text).toBe(false);
    }
  });
});
