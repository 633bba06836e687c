// Enough for about 10,000 books with reviews, so that no export, however large or hostile, can exhaust the machine.
import { MAX_CONTENT_FILE_BYTES } from "../../catalogue/limits.ts";

export const MAX_IMPORT_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;
/** Its Markdown must still fit in a content file. */
export const MAX_POST_BYTES = 4 * MAX_CONTENT_FILE_BYTES;
export const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;
export const MAX_COVER_BYTES = 10 * 1024 * 1024;
