/**
 * How much one import reads, so that no export file, however large or hostile, can exhaust the
 * machine: an export of about 10,000 books with their reviews, or a blog of as many posts, fits.
 * The split files of a larger one import one after another, each skipping what is already there.
 */
import { MAX_CONTENT_FILE_BYTES } from "../../catalogue/limits.ts";

/** The CSV file or the Medium zip itself. */
export const MAX_IMPORT_FILE_BYTES = 32 * 1024 * 1024;
/** Rows of a CSV file, or posts of a Medium export. */
export const MAX_IMPORT_ROWS = 10_000;
/** One post's HTML: its Markdown must still fit in a content file. */
export const MAX_POST_BYTES = 4 * MAX_CONTENT_FILE_BYTES;
/** Every post of a Medium export together, unpacked. */
export const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;
/** One cover from the covers service. */
export const MAX_COVER_BYTES = 10 * 1024 * 1024;
