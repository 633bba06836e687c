/**
 * Where the site's icon lives, for the pages' head (light: no drawing code). The build draws both
 * files from content/site.yaml (catalogue/site-icon.ts); a file of the same name under public/
 * would be silently replaced, so the build refuses one.
 */
export const SITE_ICON_FILES = { svg: "/favicon.svg", touch: "/apple-touch-icon.png" } as const;
