// Every new file is checked with the real loader beside the existing content first, so the dry run names every
// file the write or the build would refuse.
import { createReadStream, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { contentRoot, imageExists, loadCatalogue, readContentFiles } from "../../catalogue/disk.ts";
import { sizeText } from "../../catalogue/limits.ts";
import { ContentError } from "../../catalogue/load.ts";
import { terminalText } from "../terminal-text.ts";
import type { Skipped } from "./book.ts";
import { COVER_REQUEST_INTERVAL_MS, fetchCover, OPEN_LIBRARY_COVERS } from "./covers.ts";
import { noteText } from "./files.ts";
import { readGoodreads } from "./goodreads.ts";
import { MAX_IMPORT_FILE_BYTES } from "./limits.ts";
import { type MediumPost, mediumFiles, readMediumPost } from "./medium.ts";
import { describePlanned, planBooks, planEssays } from "./plan.ts";
import { siteEssays, siteNotes } from "./site-notes.ts";
import { contentOrStop, orStop, parsedOrStop, Stop, scaleOption, stop } from "./stop.ts";
import { readStoryGraph } from "./storygraph.ts";
import { addTagsToSiteYaml, parseTagMap, type TagMap } from "./tags.ts";
import { refuseInvalid } from "./validate.ts";
import { NotWritten, type Output, writeAllOrNone } from "./write-all.ts";

const USAGE = `Usage:
  npm run import -- goodreads <goodreads_library_export.csv> [options]
  npm run import -- storygraph <storygraph export .csv> [options]
  npm run import -- medium <Medium's export .zip, or the folder it unpacks to> [options]

Shows what it would create and what it skips, and changes nothing; --write writes the files.
Options:
  --write              write the files (never over an existing one)
  --scale <n>          a star is worth n points of the site's 0-10 rating (default 2)
  --tags <map.yaml>    map shelves to tags: 'sci-fi: "Fiction"', 'favorites: null' leaves one out
  --add-tags           add the shelves that are no tag to the tags of content/site.yaml
  --drafts             write unrated or untagged books as drafts instead of skipping them
  --covers             fetch covers from Open Library for books with an ISBN (one a second)
  --covers-url <url>   the covers service (default ${OPEN_LIBRARY_COVERS})
  --root <dir>         another project folder (default: CONTENT_ROOT, else this one)
  --help               this text`;

const count = (number: number, one: string, many = `${one}s`) => `${number} ${number === 1 ? one : many}`;

export async function importCommand(
  args: readonly string[],
  output: (text: string) => void,
  errorOutput: (text: string) => void,
): Promise<number> {
  // The report is made of the export's titles, authors and file names.
  const print = (text: string) => output(terminalText(text));
  const printError = (text: string) => errorOutput(terminalText(text));
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    printError(error.message);
    return error.code;
  }

  async function run(): Promise<number> {
    const { values: options, positionals } = parsedOrStop(
      {
        args: [...args],
        allowPositionals: true,
        options: {
          write: { type: "boolean", default: false },
          scale: { type: "string", default: "2" },
          tags: { type: "string" },
          "add-tags": { type: "boolean", default: false },
          drafts: { type: "boolean", default: false },
          covers: { type: "boolean", default: false },
          "covers-url": { type: "string", default: OPEN_LIBRARY_COVERS },
          root: { type: "string" },
          help: { type: "boolean", default: false },
        },
      },
      USAGE,
    );
    if (options.help) {
      print(USAGE);
      return 0;
    }
    const [source, inputPath, ...extra] = positionals;
    if (source !== "goodreads" && source !== "storygraph" && source !== "medium") {
      stop(
        `${source ? `Unknown source "${source}"` : "Say what to import"}: goodreads, storygraph or medium.\n\n${USAGE}`,
        2,
      );
    }
    if (!inputPath)
      stop(`Give the ${source === "medium" ? "zip file or folder" : "CSV file"} to import.\n\n${USAGE}`, 2);
    if (extra.length > 0) stop(`One file to import, not ${positionals.length - 1}: ${extra.join(" ")}\n\n${USAGE}`, 2);
    const scale = scaleOption(options.scale);

    const root = options.root ? resolve(options.root) : contentRoot(process.cwd());
    const input = resolve(inputPath);
    const stats = orStop(
      () => statSync(input),
      (error) => `Cannot read ${inputPath}: ${error.code ?? error.message}`,
    );
    const inputSize = stats.isFile() ? stats.size : 0;
    if (inputSize > MAX_IMPORT_FILE_BYTES) {
      stop(
        `${inputPath} is ${sizeText(inputSize)}, more than one import reads (${sizeText(MAX_IMPORT_FILE_BYTES)}): split it and import the parts one after another; each skips what is already there. Nothing was written.`,
      );
    }
    const files = readContentFiles(root);
    const declared = contentOrStop(() => loadCatalogue(root, files).site.tags);

    const lines: string[] = [];
    const say = (line = "") => lines.push(line);
    const list = (heading: string, items: readonly string[]) => {
      if (items.length === 0) return;
      say(heading);
      for (const item of items) say(`  ${item}`);
    };
    const report = (noun: string, created: readonly string[], skipped: readonly Skipped[]) => {
      list(`${options.write ? "Created" : "Would create"} ${count(created.length, noun)}:`, created);
      list(
        `${options.write ? "Skipped" : "Would skip"} ${skipped.length}:`,
        skipped.map((skip) => `${skip.line === null ? "" : `line ${skip.line}: `}${skip.what}: ${skip.reason}`),
      );
    };

    async function importBooks(): Promise<Output[]> {
      const readBooks = source === "goodreads" ? readGoodreads : readStoryGraph;
      const books = await readBooks(createReadStream(input, { encoding: "utf8" }), scale).catch(
        (error: NodeJS.ErrnoException) =>
          stop(`${error.code ? "Cannot read " : ""}${inputPath}: ${error.code ?? error.message}. Nothing was written.`),
      );
      let map: TagMap = new Map();
      if (options.tags) {
        const tagsFile = options.tags;
        map = orStop(
          () => parseTagMap(readFileSync(resolve(tagsFile), "utf8")),
          (error) => `${tagsFile}: ${error.message}`,
        );
        const undeclared = [...new Set([...map.values()].flat())].filter((tag) => !declared.includes(tag));
        if (undeclared.length > 0 && !options["add-tags"]) {
          stop(
            `${options.tags} maps shelves to ${undeclared.map((tag) => `"${tag}"`).join(", ")}, which content/site.yaml does not declare: add them to its tags, or use --add-tags.`,
          );
        }
      }
      const plan = planBooks(
        books.readings,
        siteNotes(files),
        { declared, map, addUnknown: options["add-tags"] },
        { drafts: options.drafts },
      );
      const siteYaml = files.find((file) => file.path === "content/site.yaml");
      const siteFile =
        plan.newTags.length > 0 && siteYaml
          ? { path: siteYaml.path, text: addTagsToSiteYaml(siteYaml.text, plan.newTags), replaces: true }
          : null;
      const { accepted: notes, refused } = refuseInvalid(files, siteFile, plan.notes, (path) =>
        imageExists(root, path),
      );
      const skipped = [
        ...books.skipped,
        ...plan.skipped,
        ...refused.map(({ file, problem }) => ({
          line: file.line,
          what: `"${file.note.title}"`,
          reason: `would not be valid: ${problem}`,
        })),
      ].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));

      const coverLines: string[] = [];
      const covers: Output[] = [];
      if (options.covers && !options.write) {
        const withIsbn = notes.filter((note) => note.note.isbn).length;
        coverLines.push(`Would fetch the covers of ${withIsbn} books with an ISBN from ${options["covers-url"]}.`);
      } else if (options.covers) {
        let fetched = 0;
        for (const [index, planned] of notes.entries()) {
          if (!planned.note.isbn) continue;
          if (fetched++ > 0) await sleep(COVER_REQUEST_INTERVAL_MS);
          const cover = await fetchCover(options["covers-url"], planned.note.isbn);
          if (!cover.ok) {
            coverLines.push(`${planned.path}: the drawn cover, since ${cover.reason}`);
            continue;
          }
          const note = { ...planned.note, photo: `/images/notes/${planned.slug}.png` };
          notes[index] = { ...planned, note, text: noteText(note) };
          covers.push({ path: `public${note.photo}`, bytes: cover.png });
        }
      }

      const sourceName = source === "goodreads" ? "Goodreads" : "StoryGraph";
      say(`${sourceName} export ${inputPath}: ${books.rows} rows, ${books.readings.length} readings.`);
      report(
        "note",
        notes.map((note) => `${describePlanned(note)}  ${JSON.stringify(note.note.title)} by ${note.note.author}`),
        skipped,
      );
      if (plan.unknownShelves.size > 0) {
        list(
          "Shelves that are no tag of content/site.yaml (map them with --tags map.yaml, or add them with --add-tags):",
          [[...plan.unknownShelves].map(([shelf, count]) => `${shelf} (${count})`).join(", ")],
        );
      }
      if (siteFile)
        list(`${options.write ? "Added" : "Would add"} to the tags of content/site.yaml:`, [plan.newTags.join(", ")]);
      list("Covers:", coverLines);
      list("Also:", [...books.remarks, ...plan.remarks]);
      return [...(siteFile ? [siteFile] : []), ...covers, ...notes];
    }

    async function importEssays(): Promise<Output[]> {
      const readings = orStop(
        () => mediumFiles(input).map(readMediumPost),
        (error) => `Cannot read ${inputPath} as Medium's export: ${error.message}. Nothing was written.`,
      );
      const posts: MediumPost[] = readings.flatMap((reading) => (reading.kind === "post" ? [reading.post] : []));
      const left = (kind: string) => readings.filter((reading) => reading.kind === kind).length;
      const plan = planEssays(posts, siteEssays(files));
      const { accepted: essays, refused } = refuseInvalid(files, null, plan.essays, (path) => imageExists(root, path));
      const skipped = [
        ...plan.skipped,
        ...readings.flatMap((reading) =>
          reading.kind === "unreadable"
            ? [{ line: null, what: reading.file, reason: `unreadable: ${reading.reason}` }]
            : [],
        ),
        ...refused.map(({ file, problem }) => ({
          line: null,
          what: file.path,
          reason: `would not be valid: ${problem}`,
        })),
      ];
      say(
        `Medium export ${inputPath}: ${count(readings.length, "post")}, ${posts.length} published (${count(left("draft"), "draft")} and ${count(left("reply"), "reply", "replies")} left out).`,
      );
      report(
        "essay",
        essays.map((essay) => `${essay.path}  ${JSON.stringify(essay.post.title)}, ${essay.post.date}`),
        skipped,
      );
      const images = essays.flatMap((essay) => essay.post.images.map((image) => `${essay.path}: ${image}`));
      list(
        "Images left as links to Medium (the site shows no image from another host): save each under public/images/write/ and write ![text](/images/write/<file>) in place of its link:",
        images,
      );
      return essays;
    }

    const outputs = await (source === "medium" ? importEssays() : importBooks()).catch((error: unknown) => {
      if (error instanceof ContentError)
        stop(`Nothing was written: the import would break the content.\n${error.message}`);
      throw error;
    });
    if (options.write) {
      try {
        if (outputs.length > 0) writeAllOrNone(root, outputs, checkStaged);
      } catch (error) {
        const known = error instanceof NotWritten || error instanceof ContentError;
        if (!known && (error as NodeJS.ErrnoException).code === undefined) throw error;
        stop(`Nothing was written: ${(error as Error).message}.`);
      }
      say(`Wrote ${count(outputs.length, "file")}.`);
    } else {
      say("Dry run: nothing was written. Run again with --write to create these files.");
    }
    print(lines.join("\n"));
    return 0;

    function checkStaged(staging: string) {
      const staged = outputs
        .filter((output) => output.text !== undefined)
        .map((output) => ({ path: output.path, text: readFileSync(join(staging, output.path), "utf8") }));
      const siteYaml = staged.find((file) => file.path === "content/site.yaml") ?? null;
      const { refused } = refuseInvalid(
        files,
        siteYaml,
        staged.filter((file) => file !== siteYaml),
        (path) => imageExists(staging, path) || imageExists(root, path),
      );
      const [first] = refused;
      if (first) throw new NotWritten(`${first.file.path}: ${first.problem}`);
    }
  }
}
