// Open Library asks its users for one request a second at most. resvg already draws the site's covers,
// so no image library that downloads binaries is needed.
import { sizeText } from "../../catalogue/limits.ts";
import { COVER_HEIGHT, COVER_WIDTH } from "../../outputs/cover.ts";
import { svgToPng } from "../../outputs/png.ts";
import { MAX_COVER_BYTES } from "./limits.ts";

export const OPEN_LIBRARY_COVERS = "https://covers.openlibrary.org";

export const COVER_REQUEST_INTERVAL_MS = 1000;

const IMAGE_KINDS: { type: string; magic: number[] }[] = [
  { type: "image/jpeg", magic: [0xff, 0xd8, 0xff] },
  { type: "image/png", magic: [0x89, 0x50, 0x4e, 0x47] },
  { type: "image/gif", magic: [0x47, 0x49, 0x46, 0x38] },
];

export function imageTypeOf(bytes: Uint8Array): string | null {
  return IMAGE_KINDS.find(({ magic }) => magic.every((byte, index) => bytes[index] === byte))?.type ?? null;
}

export function coverPng(bytes: Uint8Array, type: string): Buffer {
  const data = `data:${type};base64,${Buffer.from(bytes).toString("base64")}`;
  return svgToPng(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}"><image width="${COVER_WIDTH}" height="${COVER_HEIGHT}" preserveAspectRatio="xMidYMid slice" href="${data}"/></svg>`,
  );
}

/** `default=false` makes the service answer 404 when it has no cover. */
export const coverUrl = (service: string, isbn: string) =>
  `${service.replace(/\/+$/, "")}/b/isbn/${encodeURIComponent(isbn)}-L.jpg?default=false`;

export type CoverResult = { ok: true; png: Buffer } | { ok: false; reason: string };

/** Leaving the loop early cancels the rest of the body. */
async function bodyUpTo(response: Response, limit: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function fetchCover(service: string, isbn: string): Promise<CoverResult> {
  const failed = (reason: string) => ({ ok: false, reason }) as const;
  let response: Response;
  try {
    response = await fetch(coverUrl(service, isbn), { redirect: "follow", signal: AbortSignal.timeout(20_000) });
  } catch (error) {
    return failed(`the covers service could not be reached (${(error as Error).cause ?? (error as Error).message})`);
  }
  if (response.status === 404) return failed("the covers service has no cover for it");
  if (!response.ok) return failed(`the covers service answered ${response.status}`);
  const bytes = await bodyUpTo(response, MAX_COVER_BYTES);
  if (!bytes) return failed(`the covers service sent more than ${sizeText(MAX_COVER_BYTES)}`);
  const type = imageTypeOf(bytes);
  if (!type) return failed("the covers service sent something that is not an image");
  try {
    return { ok: true, png: coverPng(bytes, type) };
  } catch (error) {
    return failed(`its cover could not be read (${(error as Error).message})`);
  }
}
