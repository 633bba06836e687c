/** Astro's blog template, made again in our own words (bench/astro-blog/): the build ours is measured beside. */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { loadCatalogue } from "../catalogue/disk.ts";
import { runCommand } from "./processes.ts";

const TEMPLATE = join(import.meta.dirname, "astro-blog");
/** Astro's packages, outside the repository: installed once, again only when the blog's package.json changes. */
const PACKAGES = join(tmpdir(), "creator-site-bench-astro");

export async function installAstroPackages(log: (message: string) => void): Promise<void> {
  const wanted = readFileSync(join(TEMPLATE, "package.json"), "utf8");
  const installed = join(PACKAGES, "package.json");
  if (
    existsSync(join(PACKAGES, "node_modules/.package-lock.json")) &&
    existsSync(installed) &&
    readFileSync(installed, "utf8") === wanted
  )
    return;
  rmSync(PACKAGES, { recursive: true, force: true });
  mkdirSync(PACKAGES, { recursive: true });
  writeFileSync(installed, wanted);
  log(`build: npm install of Astro's packages into ${PACKAGES}`);
  await runCommand("npm", ["install", "--no-audit", "--no-fund"], { cwd: PACKAGES, timeoutMs: 10 * 60_000 });
}

/**
 * Writes the blog into the empty folder `dir` with one Markdown post per note of the project at
 * `notesRoot` (its title, author, date, photo and text); returns how many.
 */
export function writeAstroBlog(dir: string, notesRoot: string): number {
  cpSync(TEMPLATE, dir, { recursive: true });
  // Links to each package, so that what Astro and Vite cache in node_modules stays in `dir`.
  mkdirSync(join(dir, "node_modules"));
  for (const entry of readdirSync(join(PACKAGES, "node_modules")))
    symlinkSync(join(PACKAGES, "node_modules", entry), join(dir, "node_modules", entry));
  const posts = join(dir, "src/content/blog");
  mkdirSync(posts, { recursive: true });
  mkdirSync(join(dir, "src/assets"));
  const { notes } = loadCatalogue(notesRoot);
  for (const note of notes) {
    // Covers our build draws (no file yet) are left out: the template has no such step.
    const photo = join(notesRoot, "public", note.photo);
    const cover = note.photo && existsSync(photo) ? basename(photo) : null;
    if (cover) cpSync(photo, join(dir, "src/assets", cover));
    const frontMatter = [
      `title: ${JSON.stringify(note.name)}`,
      `description: ${JSON.stringify(`A note on ${note.name}, by ${note.author}.`)}`,
      `pubDate: ${note.date}`,
      ...(cover ? [`heroImage: ../../assets/${cover}`] : []),
    ];
    writeFileSync(join(posts, `${note.slug}.md`), `---\n${frontMatter.join("\n")}\n---\n${note.markdown}\n`);
  }
  return notes.length;
}
