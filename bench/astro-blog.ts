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
  mkdirSync(join(dir, "src/content/blog"), { recursive: true });
  mkdirSync(join(dir, "src/assets"));
  const { notes } = loadCatalogue(notesRoot);
  for (const note of notes)
    writeAstroPost(dir, notesRoot, { ...note, description: `A note on ${note.name}, by ${note.author}.` });
  return notes.length;
}

export type AstroPost = {
  slug: string;
  name: string;
  description: string;
  date: string;
  photo?: string;
  markdown: string;
};

/** One post of the blog in `dir`, its hero image copied from the project at `root`. */
export function writeAstroPost(dir: string, root: string, post: AstroPost): void {
  // Covers our build draws (no file yet) are left out: the template has no such step.
  const photo = join(root, "public", post.photo ?? "");
  const cover = post.photo && existsSync(photo) ? basename(photo) : null;
  if (cover) cpSync(photo, join(dir, "src/assets", cover));
  const frontMatter = [
    `title: ${JSON.stringify(post.name)}`,
    `description: ${JSON.stringify(post.description)}`,
    `pubDate: ${post.date}`,
    ...(cover ? [`heroImage: ../../assets/${cover}`] : []),
  ];
  writeFileSync(
    join(dir, "src/content/blog", `${post.slug}.md`),
    `---\n${frontMatter.join("\n")}\n---\n${post.markdown}\n`,
  );
}
