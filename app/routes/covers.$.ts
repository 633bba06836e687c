import { isGeneratedCover } from "../../catalogue/cover-path.ts";
import { COVER_IMAGE_SCALE, drawsCoverImage } from "../../outputs/card.ts";
import { coverSvg } from "../../outputs/cover.ts";
import { cachedImage } from "../../outputs/image-cache.ts";
import { notesBySlug, notFound, readPublicFile } from "../catalogue.server.ts";
import type { Route } from "./+types/covers.$";

/** /covers/<slug>.svg, the cover drawn for a book without one, and /covers/<slug>.png, its copy for social sites. */
export async function loader({ params }: Route.LoaderArgs) {
  const [, slug = "", extension] = /^([a-z0-9-]+)\.(svg|png)$/.exec(params["*"] ?? "") ?? [];
  const note = notesBySlug.get(slug);
  if (!note) notFound();
  const svg = isGeneratedCover(note) ? coverSvg(note.name, note.author) : undefined;
  if (extension === "svg" && svg) return new Response(svg, { headers: { "Content-Type": "image/svg+xml" } });
  if (extension !== "png" || !drawsCoverImage(note)) notFound();
  const source = svg ?? readPublicFile(note.photo).toString("utf8");
  const png = await cachedImage("cover", { source, scale: COVER_IMAGE_SCALE }, async () =>
    (await import("../../outputs/png.ts")).svgToPng(source, COVER_IMAGE_SCALE),
  );
  return new Response(new Uint8Array(png), { headers: { "Content-Type": "image/png" } });
}
