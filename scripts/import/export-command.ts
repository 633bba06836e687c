import { resolve } from "node:path";
import { contentRoot, loadCatalogue, readContentFiles } from "../../catalogue/disk.ts";
import { writeNewFile } from "../../catalogue/new-file.ts";
import { siteUrlFromEnvironment } from "../../catalogue/site-url.ts";
import { starsOf } from "./book.ts";
import { goodreadsCsv } from "./goodreads.ts";
import { siteNotes } from "./site-notes.ts";
import { contentOrStop, parsedOrStop, Stop, scaleOption, stop } from "./stop.ts";

const USAGE = `Usage:
  npm run export -- goodreads [--out goodreads_export.csv] [--scale 2] [--root <dir>]

Writes every published note to a CSV file that Goodreads' importer reads (My Books, Import and
export). Never writes over an existing file.
Options:
  --out <file>   the file to write (default goodreads_export.csv in the current folder)
  --scale <n>    a star is worth n points of the site's 0-10 rating (default 2)
  --root <dir>   another project folder (default: CONTENT_ROOT, else this one)`;

export function exportCommand(
  args: readonly string[],
  print: (text: string) => void,
  printError: (text: string) => void,
): number {
  try {
    const { values: options, positionals } = parsedOrStop(
      {
        args: [...args],
        allowPositionals: true,
        options: {
          out: { type: "string", default: "goodreads_export.csv" },
          scale: { type: "string", default: "2" },
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
    if (positionals.length !== 1 || positionals[0] !== "goodreads") {
      stop(
        `${positionals[0] ? `Cannot export to "${positionals.join(" ")}"` : "Say where to export to"}: goodreads.\n\n${USAGE}`,
        2,
      );
    }
    const scale = scaleOption(options.scale);

    const root = options.root ? resolve(options.root) : contentRoot(process.cwd());
    contentOrStop(() => loadCatalogue(root));
    const notes = siteNotes(readContentFiles(root)).filter((note) => !note.draft);
    const csv = goodreadsCsv(notes, scale, siteUrlFromEnvironment(process.env));
    if (!writeNewFile(resolve(options.out), csv)) stop(`${options.out} already exists; nothing was written.`);
    const rounded = notes.filter((note) => note.rating !== null && starsOf(note.rating, scale) * scale !== note.rating);
    print(`Wrote ${notes.length} notes to ${options.out}.`);
    if (rounded.length > 0) {
      print(
        `${rounded.length} ratings became whole stars, as Goodreads has no other (e.g. ${rounded[0]?.rating} → ${starsOf(rounded[0]?.rating ?? 0, scale)} stars).`,
      );
    }
    print("Import it on Goodreads: My Books, Import and export, Import books.");
    return 0;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    printError(error.message);
    return error.code;
  }
}
