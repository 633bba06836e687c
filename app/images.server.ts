import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { eachAtOnce } from "../catalogue/present.ts";
import { drawImage, imageType, siteImages } from "../outputs/site-images.ts";
import { catalogue, notFound, readPublicFile } from "./catalogue.server.ts";
import { SITE_URL } from "./lib/site-url.ts";

/** Made once: a card or cover must not cost a pass over the catalogue. */
const images = siteImages(catalogue, new URL(SITE_URL).host);

/** A drawn image by its site path (a build writes them all as files, so this answers under `npm run dev`). */
export async function imageResponse(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const image = images.get(path) ?? notFound();
  const body = await drawImage(image, readPublicFile);
  return new Response(typeof body === "string" ? body : new Uint8Array(body), {
    headers: { "Content-Type": imageType(path), ...headers },
  });
}

/** The build's step that writes every drawn image into the browser build's folder; returns their files. */
export async function writeImages(clientDir: string): Promise<string[]> {
  const files: string[] = [];
  await eachAtOnce(images, async ([path, image]) => {
    const file = join(clientDir, path);
    const drawn = await drawImage(image, readPublicFile);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, drawn);
    files.push(file);
  });
  return files;
}
