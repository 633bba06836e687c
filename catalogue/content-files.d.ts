/** The published content files, served to the server build by the catalogue's Vite plugin (catalogue/vite-plugin.ts). */
declare module "virtual:content-files" {
  const files: import("./load.ts").ContentFile[];
  export default files;
}

/** Where the browser build put the search module and index (catalogue/search-vite-plugin.ts). */
declare module "virtual:search-assets" {
  const assets: import("./search-vite-plugin.ts").SearchAssets;
  export default assets;
}
