// Never the system's fonts, so every machine draws the same PNG.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Resvg } from "@resvg/resvg-js";

const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");

const FACES = [
  "DejaVuSerif.ttf",
  "DejaVuSerif-Bold.ttf",
  "DejaVuSerifCondensed-Bold.ttf",
  "DejaVuSans.ttf",
  "DejaVuSans-Bold.ttf",
] as const;

export const FONT_FILES = Object.fromEntries(FACES.map((face) => [face, join(FONT_DIR, face)])) as Record<
  (typeof FACES)[number],
  string
>;

const FONTS = { fontFiles: Object.values(FONT_FILES), loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" };

// `value`: a zoom factor, or the width in pixels.
export const svgToPng = (svg: string, value = 1, mode: "zoom" | "width" = "zoom"): Buffer =>
  new Resvg(svg, { fitTo: { mode, value }, font: FONTS }).render().asPng();
