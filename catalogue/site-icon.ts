/**
 * The site's icon, the owner's mark in the browser tab and on a phone's home screen, drawn when the
 * site is built: from the image `icon` names in content/site.yaml, or else from the owner's
 * initials on a square of the cards' colours. The build writes both files of
 * catalogue/site-icon-files.ts (scripts/finish-build.ts); the development server draws them on
 * request (catalogue/vite-plugin.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { initials, MONOGRAM } from "./card.ts";
import { svgToPngOfWidth } from "./png.ts";
import type { Site } from "./schema.ts";
import { SITE_ICON_FILES } from "./site-icon-files.ts";
import { escapeXml } from "./xml.ts";

/** The size phones ask of a home-screen icon. */
export const TOUCH_ICON_SIZE = 180;

/** The owner's initials, white on the monogram's square: the icon of a site that names no image. */
export function initialsIconSvg(name: string): string {
  const letters = initials(name);
  // Two letters fill the square less than one, so they get a smaller size.
  const fontSize = [...letters].length > 1 ? 15 : 19;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">',
    `<title>${escapeXml(name)}</title>`,
    `<rect width="32" height="32" rx="7" fill="${MONOGRAM.background}"/>`,
    `<text x="16" y="21.5" font-family="Georgia, 'DejaVu Serif', serif" font-size="${fontSize}" font-weight="700" fill="${MONOGRAM.ink}" text-anchor="middle">${escapeXml(letters)}</text>`,
    "</svg>",
  ].join("");
}

const RASTER_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg" };

/**
 * The icon as SVG: the owner's SVG file as it is, their PNG or JPEG inside a square SVG (one
 * favicon address whatever the owner gave), or their initials. `readPublic` reads a file named
 * from the site root ("/images/me.png").
 */
export function siteIconSvg(site: Pick<Site, "name" | "icon">, readPublic: (sitePath: string) => Buffer): string {
  if (!site.icon) return initialsIconSvg(site.name);
  const file = readPublic(site.icon);
  const extension = site.icon.split(".").at(-1)?.toLowerCase() ?? "";
  const type = RASTER_TYPES[extension];
  if (!type) return file.toString("utf8");
  const size = TOUCH_ICON_SIZE;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">`,
    `<title>${escapeXml(site.name)}</title>`,
    `<image width="${size}" height="${size}" preserveAspectRatio="xMidYMid slice" xlink:href="data:${type};base64,${file.toString("base64")}"/>`,
    "</svg>",
  ].join("");
}

/** The home-screen icon: the site icon drawn 180 px wide. */
export const touchIconPng = (svg: string): Buffer => svgToPngOfWidth(svg, TOUCH_ICON_SIZE);

/** Both icon files of the site whose content and public folders are under `root`, by site path. */
export function siteIconFiles(root: string, site: Pick<Site, "name" | "icon">): Map<string, string | Buffer> {
  const svg = siteIconSvg(site, (sitePath) => readFileSync(join(root, "public", sitePath)));
  return new Map<string, string | Buffer>([
    [SITE_ICON_FILES.svg, svg],
    [SITE_ICON_FILES.touch, touchIconPng(svg)],
  ]);
}

/**
 * A file under public/ that the build would replace with the drawn icon, as the owner should read
 * it, or undefined: an icon of the owner's own belongs in `icon` in site.yaml.
 */
export function replacedIconProblem(root: string): string | undefined {
  const clash = Object.values(SITE_ICON_FILES).find((sitePath) => existsSync(join(root, "public", sitePath)));
  if (!clash) return undefined;
  return `public${clash} would be replaced: the site draws its icon from content/site.yaml. Move your image, e.g. to public/images${clash}, and write icon: "/images${clash}" in content/site.yaml (or delete the file to get your initials).`;
}
