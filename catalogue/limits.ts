// 120 bytes leave room for the build's suffixes on every filesystem; 512 kB keeps the build and the server small.
export const MAX_SLUG_BYTES = 120;
export const MAX_CONTENT_FILE_BYTES = 512 * 1024;

export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}
