/** The site's icon drawn from content/site.yaml, and the icon links' words from the names it gives. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { afterAll, describe, expect, test } from "vitest";
import { iconLinkKinds } from "../../app/lib/icon-links.ts";
import { loadCatalogue } from "../../catalogue/disk.ts";
import { ContentError } from "../../catalogue/load.ts";
import { initials } from "../../outputs/card.ts";
import { SITE_ICON_FILES } from "../../outputs/linked-files.ts";
import { svgToPng } from "../../outputs/png.ts";
import { initialsIconSvg, replacedIconProblem, siteIconFiles, TOUCH_ICON_SIZE } from "../../outputs/site-icon.ts";
import { parseXml } from "./xml.ts";

const FIXTURE_ROOT = join(import.meta.dirname, "../fixtures");
const fixtureSite = loadCatalogue(FIXTURE_ROOT).site;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});
function copyOfFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), "site-icon-"));
  temps.push(dir);
  cpSync(FIXTURE_ROOT, dir, { recursive: true });
  return dir;
}
function setSiteYaml(root: string, edit: (text: string) => string) {
  const file = join(root, "content/site.yaml");
  writeFileSync(file, edit(readFileSync(file, "utf8")));
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer) {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** How many pixels of the middle half (away from the rounded corners) are not the background. */
function inkedPixels(png: Buffer, background: [number, number, number]) {
  const { width, height } = pngSize(png);
  // resvg decodes the PNG: drawn as the only image of an SVG of its size, it gives back its pixels.
  const { pixels } = new Resvg(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}"><image width="${width}" height="${height}" xlink:href="data:image/png;base64,${png.toString("base64")}"/></svg>`,
  ).render();
  let inked = 0;
  for (let y = Math.floor(height / 4); y < (height * 3) / 4; y++) {
    for (let x = Math.floor(width / 4); x < (width * 3) / 4; x++) {
      const at = (y * width + x) * 4;
      const distance = background.reduce(
        (sum, channel, index) => sum + Math.abs((pixels[at + index] ?? 0) - channel),
        0,
      );
      if (distance > 60) inked++;
    }
  }
  return inked;
}

describe("the site icon", () => {
  test("without an icon in site.yaml it is the owner's initials, as SVG and as a 180 px PNG", () => {
    const files = siteIconFiles(FIXTURE_ROOT, fixtureSite);
    const svg = String(files.get(SITE_ICON_FILES.svg));
    const parsed = parseXml(svg) as { svg: { title: string; text: { "#text": string } } };
    expect(parsed.svg.title).toBe("Test Owner");
    expect(parsed.svg.text["#text"]).toBe("TO");
    const png = files.get(SITE_ICON_FILES.touch) as Buffer;
    expect(pngSize(png)).toEqual({ width: TOUCH_ICON_SIZE, height: TOUCH_ICON_SIZE });
    // The letters are drawn (the build has the fonts), not an empty square.
    expect(inkedPixels(png, [0x1f, 0x3a, 0x5f])).toBeGreaterThan(500);
  });

  test("a renamed owner gets their own initials, and a one-word name one letter", () => {
    expect(initialsIconSvg("Jordan Lee")).toContain(">JL</text>");
    expect(initialsIconSvg("Madonna")).toContain(">M</text>");
    expect(initialsIconSvg("Ana María de la Cruz")).toContain(`>${initials("Ana María de la Cruz")}</text>`);
    expect(initialsIconSvg("Åsa <Öberg> & co")).toContain("<title>Åsa &lt;Öberg&gt; &amp; co</title>");
    parseXml(initialsIconSvg("Åsa <Öberg> & co"));
  });

  test("an SVG file named by icon is the favicon as it is, and drawn as the home-screen PNG", () => {
    const root = copyOfFixture();
    const own =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#c00"/></svg>';
    writeFileSync(join(root, "public/images/icon.svg"), own);
    setSiteYaml(root, (text) => `${text}\nicon: "/images/icon.svg"\n`);
    const site = loadCatalogue(root).site;
    const files = siteIconFiles(root, site);
    expect(files.get(SITE_ICON_FILES.svg)).toBe(own);
    expect(pngSize(files.get(SITE_ICON_FILES.touch) as Buffer)).toEqual({ width: 180, height: 180 });
  });

  test("a PNG file named by icon is held by the SVG favicon, so the page names one icon whatever the file", () => {
    const root = copyOfFixture();
    const own = svgToPng(
      '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><rect width="48" height="48" fill="#0a0"/></svg>',
    );
    writeFileSync(join(root, "public/images/me.png"), own);
    setSiteYaml(root, (text) => `${text}\nicon: "/images/me.png"\n`);
    const files = siteIconFiles(root, loadCatalogue(root).site);
    const svg = String(files.get(SITE_ICON_FILES.svg));
    expect(svg).toContain(`data:image/png;base64,${own.toString("base64")}`);
    parseXml(svg);
    // Drawn green all over: the embedded picture, not the initials.
    expect(inkedPixels(files.get(SITE_ICON_FILES.touch) as Buffer, [0x1f, 0x3a, 0x5f])).toBeGreaterThan(8000);
  });

  test("an icon that is missing, remote or not an image stops the load with the file and the field", () => {
    const root = copyOfFixture();
    setSiteYaml(root, (text) => `${text}\nicon: "/images/gone.svg"\n`);
    expect(() => loadCatalogue(root)).toThrow(
      new ContentError(
        "content/site.yaml",
        "icon",
        "names the image /images/gone.svg, but there is no file public/images/gone.svg",
      ),
    );
    setSiteYaml(root, (text) => text.replace('"/images/gone.svg"', '"/images/notes/mans-search-for-meaning.gif"'));
    expect(() => loadCatalogue(root)).toThrow(/content\/site.yaml: field "icon" must be an .svg, .png or .jpg file/);
    setSiteYaml(root, (text) =>
      text.replace('"/images/notes/mans-search-for-meaning.gif"', '"https://example.com/me.png"'),
    );
    expect(() => loadCatalogue(root)).toThrow(/field "icon" "https:\/\/example.com\/me.png" is a remote image/);
  });

  test("a favicon of the owner's own under public/ is named as a problem, not silently replaced", () => {
    const root = copyOfFixture();
    expect(replacedIconProblem(root)).toBeUndefined();
    writeFileSync(join(root, "public/favicon.svg"), "<svg/>");
    expect(replacedIconProblem(root)).toBe(
      'public/favicon.svg would be replaced: the site draws its icon from content/site.yaml. Move your image, e.g. to public/images/favicon.svg, and write icon: "/images/favicon.svg" in content/site.yaml (or delete the file to get your initials).',
    );
  });
});

describe("the icon links' words", () => {
  const actions = (names: { noteApp?: string; blog?: string }) =>
    Object.fromEntries(iconLinkKinds(names).map((kind) => [kind.field, kind.action]));

  test("without names in site.yaml they are the generic words", () => {
    expect(actions({})).toEqual({
      twosLink: "Read on the note app",
      youtubeLink: "Watch the video",
      patreonLink: "Support on Patreon",
      link: "Buy on Amazon",
      podcastLink: "Listen to the podcast",
      mediumLink: "Read on Medium",
    });
  });

  test("the note app and the blog say the names site.yaml gives them", () => {
    expect(actions({ noteApp: "Obsidian Publish", blog: "Substack" })).toMatchObject({
      twosLink: "Read on Obsidian Publish",
      mediumLink: "Read on Substack",
    });
    expect(fixtureSite.noteApp).toBe("Twos");
    expect(actions(fixtureSite)).toMatchObject({ twosLink: "Read on Twos", mediumLink: "Read on Medium" });
  });
});
