export const SITE_TITLE = "Reading notes";
export const SITE_DESCRIPTION = "Notes on books, one post each.";
