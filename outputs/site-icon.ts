import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Site } from "../catalogue/schema.ts";
import { escapeXml } from "../catalogue/xml.ts";
import { initials, MONOGRAM } from "./card.ts";
import { SITE_ICON_FILES } from "./linked-files.ts";
import { svgToPng } from "./png.ts";

export const TOUCH_ICON_SIZE = 180;

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

export const touchIconPng = (svg: string): Buffer => svgToPng(svg, TOUCH_ICON_SIZE, "width");

export function siteIconFiles(root: string, site: Pick<Site, "name" | "icon">): Map<string, string | Buffer> {
  const svg = siteIconSvg(site, (sitePath) => readFileSync(join(root, "public", sitePath)));
  return new Map<string, string | Buffer>([
    [SITE_ICON_FILES.svg, svg],
    [SITE_ICON_FILES.touch, touchIconPng(svg)],
  ]);
}

export function replacedIconProblem(root: string): string | undefined {
  const clash = Object.values(SITE_ICON_FILES).find((sitePath) => existsSync(join(root, "public", sitePath)));
  if (!clash) return undefined;
  return `public${clash} would be replaced: the site draws its icon from content/site.yaml. Move your image, e.g. to public/images${clash}, and write icon: "/images${clash}" in content/site.yaml (or delete the file to get your initials).`;
}
