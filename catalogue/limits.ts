/**
 * The sizes a content file may have, so that every build, server and filesystem can take it: a
 * slug (the file name without `.md`, and the page's folder in the build) of at most 120 bytes fits
 * every filesystem with room for the build's suffixes; a file of at most 512 kB is a very long essay
 * and keeps the build, the search index and the server small.
 */
export const MAX_SLUG_BYTES = 120;
export const MAX_CONTENT_FILE_BYTES = 512 * 1024;

/** "512 kB", "20.0 MB": a size as the owner reads it. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}
