import { cachedImage } from "../../outputs/image-cache.ts";
import { SITE_ICON_FILES } from "../../outputs/linked-files.ts";
import { catalogue, readPublicFile } from "../catalogue.server.ts";
import type { Route } from "./+types/site-icon";

export async function loader({ request }: Route.LoaderArgs) {
  // Loaded by the build alone, like every drawing: the server serves the files it wrote.
  const { siteIconSvg, touchIconPng } = await import("../../outputs/site-icon.ts");
  const svg = siteIconSvg(catalogue.site, readPublicFile);
  if (new URL(request.url).pathname !== SITE_ICON_FILES.touch) {
    return new Response(svg, { headers: { "Content-Type": "image/svg+xml" } });
  }
  const png = await cachedImage("touch-icon", svg, () => touchIconPng(svg));
  return new Response(new Uint8Array(png), { headers: { "Content-Type": "image/png" } });
}
