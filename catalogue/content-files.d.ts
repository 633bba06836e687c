/**
 * The published content files: a module written beside the server build, or served by the
 * catalogue's Vite plugin in development (catalogue/vite-plugin.ts).
 */
declare module "virtual:content-files" {
  const files: import("./load.ts").ContentFile[];
  export default files;
}

/** Where the search module and index are served (catalogue/search-vite-plugin.ts). */
declare module "virtual:search-assets" {
  const assets: import("./search-vite-plugin.ts").SearchAssets;
  export default assets;
}
